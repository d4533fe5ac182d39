package lint

import "github.com/r35157/journal-lint/internal/diag"

// checkTrailingWhitespace is the check of style/trailing-whitespace: a line
// ends in spaces or tabs. The format allows them ("Directives and arguments"
// in docs/journal-format.md: "a style rule may warn").
func checkTrailingWhitespace(p *Pass) {
	src := p.Doc.Src
	for start, end := range lines(src) {
		blank := end
		for blank > start && (src[blank-1] == ' ' || src[blank-1] == '\t') {
			blank--
		}
		if blank < end {
			p.Report(diag.Diagnostic{
				Range:   p.Range(blank, end),
				Message: "trailing whitespace",
				Help:    "delete the spaces and tabs at the end of the line; " + acceptedNote,
			})
		}
	}
}
