package diffrender

import (
	_ "embed"
	"io"

	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/diff"
	"github.com/r35157/journal-lint/internal/safetext"
)

// JSONVersion is the version of the JSON document [Write] produces. Fields
// may be added within a version; renaming or removing one, or changing its
// meaning, makes a new version. Version 2: every "path" is an output path
// (package outpath: relative to the top level of the git work tree, else to
// the working directory), no longer root-relative in COORDINATE mode.
const JSONVersion = 2

//go:embed schema.json
var schema []byte

// Schema returns the JSON Schema (draft 2020-12) of the JSON format, as
// `journal-lint diff --schema` prints it. The slice is a new copy.
func Schema() []byte { return append([]byte(nil), schema...) }

type jsonDoc struct {
	Version     int              `json:"version"`
	Comparisons []jsonComparison `json:"comparisons"`
	Summary     jsonSummary      `json:"summary"`
}

type jsonSummary struct {
	Comparisons int `json:"comparisons"`
	Changes     int `json:"changes"`
	Errors      int `json:"errors"`
	Warnings    int `json:"warnings"`
	Infos       int `json:"infos"`
}

type jsonSide struct {
	Path           string `json:"path"`
	Coordinate     string `json:"coordinate"`
	JournalVersion string `json:"journalVersion"`
	Digest         string `json:"digest"`
}

type jsonComparison struct {
	Old     jsonSide     `json:"old"`
	New     jsonSide     `json:"new"`
	Changes []jsonChange `json:"changes"`
}

type jsonPos struct {
	Offset int `json:"offset"`
	Line   int `json:"line"`
	Column int `json:"column"`
}

type jsonRange struct {
	Start jsonPos `json:"start"`
	End   jsonPos `json:"end"`
}

type jsonValue struct {
	Value *string    `json:"value"`
	Path  string     `json:"path"`
	Range *jsonRange `json:"range"`
}

type jsonChange struct {
	Kind        string    `json:"kind"`
	Code        string    `json:"code"`
	Level       string    `json:"level"`
	Dimension   string    `json:"dimension"`
	Release     *string   `json:"release"`
	Subject     string    `json:"subject"`
	Message     string    `json:"message"`
	Old         jsonValue `json:"old"`
	New         jsonValue `json:"new"`
	Fingerprint string    `json:"fingerprint"`
}

func jsonSideOf(s diff.Side, opts WriteOptions) jsonSide {
	return jsonSide{Path: opts.path(s.Path), Coordinate: s.Coordinate, JournalVersion: s.JournalVersion.String(), Digest: s.Digest.String()}
}

func jsonRangeOf(r diag.Range) *jsonRange {
	if !r.IsValid() {
		return nil
	}
	return &jsonRange{Start: jsonPos(r.Start), End: jsonPos(r.End)}
}

func jsonValueOf(v diff.Value, opts WriteOptions) jsonValue {
	out := jsonValue{Path: opts.path(v.Path), Range: jsonRangeOf(v.Range)}
	if v.Present {
		t := v.Text
		out.Value = &t
	}
	return out
}

func writeJSON(w io.Writer, results []*diff.Result, opts WriteOptions) {
	c := Count(results)
	doc := jsonDoc{Version: JSONVersion, Comparisons: []jsonComparison{},
		Summary: jsonSummary{Comparisons: len(results), Changes: c.Changes, Errors: c.Errors, Warnings: c.Warnings, Infos: c.Infos}}
	for _, r := range results {
		jc := jsonComparison{Old: jsonSideOf(r.Old, opts), New: jsonSideOf(r.New, opts), Changes: []jsonChange{}}
		for _, ch := range r.Changes {
			var rel *string
			if ch.Release != "" {
				v := ch.Release
				rel = &v
			}
			jc.Changes = append(jc.Changes, jsonChange{Kind: string(ch.Kind), Code: ch.Kind.Code(), Level: ch.Level.String(),
				Dimension: string(ch.Dimension), Release: rel, Subject: ch.Subject, Message: ch.Message,
				Old: jsonValueOf(ch.Old, opts), New: jsonValueOf(ch.New, opts), Fingerprint: ch.Fingerprint})
		}
		doc.Comparisons = append(doc.Comparisons, jc)
	}
	_ = safetext.WriteJSON(w, doc) // a write error is kept by the errWriter
}
