package cli

import (
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/r35157/journal-lint/rules"
	ucli "github.com/urfave/cli/v2"
)

func rulesCommand() *ucli.Command {
	return &ucli.Command{
		Name:  "rules",
		Usage: "list every rule, or print one rule's documentation",
		UsageText: "journal-lint rules [CODE]\n\n" +
			"Without CODE: every rule with its code, default severity and summary. Validity rules\n" +
			"(fs/, syntax/, value/, semantic/, chain/) are always errors.\n\n" +
			"Examples:\n   journal-lint rules\n   journal-lint rules chain/fork",
		Action: func(c *ucli.Context) error {
			w := c.App.Writer
			switch c.NArg() {
			case 0:
				tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
				fmt.Fprintln(tw, "CODE\tSEVERITY\tSUMMARY")
				for _, r := range rules.All() {
					fmt.Fprintf(tw, "%s\t%s\t%s\n", r.Code, r.DefaultSeverity, r.Summary)
				}
				return tw.Flush()
			case 1:
				r, ok := rules.Lookup(c.Args().First())
				if !ok {
					return unknownRule(c.Args().First())
				}
				kind := "lint rule"
				switch r.Kind {
				case rules.Validity:
					kind = "validity rule: always an error, cannot be turned off or ignored"
				case rules.CrossRevision:
					kind = "history rule: found by comparing consecutive revisions, see journal-lint diff"
				}
				fmt.Fprintf(w, "%s (%s, default severity %s)\n\n%s\n\n%s\n", r.Code, kind, r.DefaultSeverity, r.Summary, r.LinkedDoc(docsURI))
				for _, o := range r.Options {
					fmt.Fprintf(w, "\nOption %s (%s, default %s): %s\n", o.Name, o.Kind, o.Default, o.Summary)
				}
				return nil
			}
			return usageErrorf("rules takes at most one CODE")
		},
	}
}

// unknownRule is the usage error for a code that names no rule, with the
// nearest code: the one code whose name part (after the "/") is the
// argument ("fork" for "chain/fork"), else the nearest code by spelling.
func unknownRule(arg string) error {
	var codes, byName []string
	for _, r := range rules.All() {
		codes = append(codes, r.Code)
		if _, name, _ := strings.Cut(r.Code, "/"); name == arg {
			byName = append(byName, r.Code)
		}
	}
	hint := didYouMean(arg, codes)
	if len(byName) == 1 {
		hint = fmt.Sprintf("; did you mean %q?", byName[0])
	}
	return usageErrorf("no rule %q%s (journal-lint rules lists them)", arg, hint)
}
