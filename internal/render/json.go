package render

import (
	"io"

	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/outpath"
	"github.com/r35157/journal-lint/internal/safetext"
)

// JSONVersion is the value of the "version" field of the JSON format. It
// changes only when a field is renamed or removed or changes meaning; adding
// fields keeps it.
// Version 2: "path" values and "root" are output paths (package outpath:
// relative to the top level of the git work tree, else to the working
// directory), no longer root-relative paths and an absolute root.
const JSONVersion = 2

type jsonReport struct {
	Version     int              `json:"version"`
	Root        string           `json:"root"`
	Diagnostics []jsonDiagnostic `json:"diagnostics"`
	Summary     jsonSummary      `json:"summary"`
}

type jsonDiagnostic struct {
	Code        string        `json:"code"`
	Severity    string        `json:"severity"`
	Message     string        `json:"message"`
	Path        string        `json:"path,omitempty"`
	Range       *jsonRange    `json:"range,omitempty"`
	Related     []jsonRelated `json:"related,omitempty"`
	Help        string        `json:"help,omitempty"`
	Fingerprint string        `json:"fingerprint"`
}

type jsonRelated struct {
	Path    string     `json:"path,omitempty"`
	Range   *jsonRange `json:"range,omitempty"`
	Message string     `json:"message"`
}

type jsonRange struct {
	Start jsonPos `json:"start"`
	End   jsonPos `json:"end"`
}

type jsonPos struct {
	Line   int `json:"line"`
	Column int `json:"column"`
	Offset int `json:"offset"`
}

type jsonSummary struct {
	Errors    int `json:"errors"`
	Warnings  int `json:"warnings"`
	Infos     int `json:"infos"`
	Files     int `json:"files"`
	Artifacts int `json:"artifacts"`
	Revisions int `json:"revisions"`
}

// newJSONRange returns the JSON form of rg, or nil for an invalid range or a
// diagnostic about the root (empty path). An unknown end is written as the
// start.
func newJSONRange(path string, rg diag.Range) *jsonRange {
	if path == "" || !rg.IsValid() {
		return nil
	}
	end := rg.End
	if !end.IsValid() {
		end = rg.Start
	}
	return &jsonRange{
		Start: jsonPos{rg.Start.Line, rg.Start.Column, rg.Start.Offset},
		End:   jsonPos{end.Line, end.Column, end.Offset},
	}
}

func writeJSON(w io.Writer, r *Report, opts Options) error {
	c := tally(r.Diagnostics)
	out := jsonReport{
		Version:     JSONVersion,
		Root:        outpath.Join(opts.PathPrefix, ""),
		Diagnostics: []jsonDiagnostic{},
		Summary: jsonSummary{
			Errors: c.Errors, Warnings: c.Warnings, Infos: c.Infos,
			Files: r.Summary.Files, Artifacts: r.Summary.Artifacts, Revisions: r.Summary.Revisions,
		},
	}
	fps := Fingerprints(*r)
	// The diagnostics are encoded one at a time: the report of a large tree
	// is never held whole, as JSON or as a list of its JSON values.
	return safetext.WriteJSONStream(w, out, "diagnostics", 1, len(r.Diagnostics), func(i int) any {
		d := r.Diagnostics[i]
		jd := jsonDiagnostic{
			Code:        d.Code,
			Severity:    severity(d.Severity).String(),
			Message:     d.Message,
			Path:        opts.displayPath(d.Path),
			Range:       newJSONRange(d.Path, d.Range),
			Help:        d.Help,
			Fingerprint: fps[i],
		}
		for _, rel := range d.Related {
			jd.Related = append(jd.Related, jsonRelated{
				Path:    opts.displayPath(rel.Path),
				Range:   newJSONRange(rel.Path, rel.Range),
				Message: rel.Message,
			})
		}
		return jd
	})
}
