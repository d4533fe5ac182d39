package rules

import (
	"github.com/r35157/journal-lint/internal/diag"
)

// pluginFailed is plugin/failed, reported by the check engine's rule-pack
// analyzer (internal/check/plugins.go, package internal/plugin) when a
// configured rule pack misbehaves.
var pluginFailed = Rule{
	Code:            "plugin/failed",
	DefaultSeverity: diag.Error,
	Summary:         "a configured rule pack failed, so its rules did not run",
	Doc: `A rule pack listed under ` + "`plugins:`" + ` in .journal-lint.yaml (see docs/plugins.md) did
not complete: it could not start or finish its handshake, crashed or panicked,
ran past its timeout, wrote something other than go-plugin's handshake to
stdout, described itself badly, rejected its configuration, or returned a
malformed diagnostic (an unknown rule, an empty message, a path or range
outside the documents it was given).

The pack's partial results are dropped and this one diagnostic takes their
place, naming the pack and quoting its stderr; the help text holds the last
lines of that stderr. The built-in rules and every other pack still report.
The process is killed: nothing of a failed pack outlives journal-lint.

A pack whose executable does not match its pinned sha256 is not a failure of
the pack but a configuration error: journal-lint stops before running it.

Failing example:

~~~text
$ journal-lint check journals
error: rule pack license-policy failed: check timed out after 2s; stderr: "still working on com.example.widget" [plugin/failed]
~~~

Passing example:

~~~text
$ journal-lint check journals
0 errors, 0 warnings, 0 infos in 3 files (1 artifact, 3 revisions)
~~~
`,
	Check: reportedElsewhere,
}
