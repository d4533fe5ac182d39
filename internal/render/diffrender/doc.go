// Package diffrender writes the results of the semantic diff engine
// (package diff, `journal-lint diff`) in the output formats of
// journal-lint, beside the renderers of diagnostics in package render,
// whose [render.Format] and [render.ParseFormat] it shares (the formats of
// a diff are [render.DiffFormats]):
//
//   - [render.Text]: changes grouped by release, with the old and new
//     values, word-level inline diffs of changed quoted text (from
//     diff.WordDiff), and a summary line with counts per level.
//   - [render.JSON]: a versioned document ([JSONVersion]) whose JSON Schema
//     is [Schema].
//   - [render.Markdown]: a compact table for a pull-request comment, with
//     collapsible details per release.
//   - [render.GitHub]: GitHub Actions workflow commands that annotate the
//     new file's lines.
package diffrender
