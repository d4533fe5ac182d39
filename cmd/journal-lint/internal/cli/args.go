package cli

import (
	"strings"

	ucli "github.com/urfave/cli/v2"
)

// interspersed rewrites args so that a command's flags may follow its
// positional arguments (`check ROOT --examples`), which urfave/cli v2 does not
// allow on its own: it moves every flag of the command, with its value, in
// front of the positional arguments. "--" ends flag handling; everything
// after it stays positional. Arguments of unknown commands are unchanged.
// For a command with subcommands (`tlog init ROOT --origin O`) it is the
// subcommand's flags that move, behind the subcommand's name. A flag that
// takes a value but comes last, with none, stays last and the positional
// arguments go, so that the command fails as urfave/cli fails it ("flag
// needs an argument") instead of taking the "--" in front of them.
func interspersed(app *ucli.App, args []string) []string {
	if len(args) < 2 {
		return args
	}
	cmd := app.Command(args[1])
	if cmd == nil {
		return args
	}
	head := 2 // args[:head] are the program and the command path
	for head < len(args) {
		sub := cmd.Command(args[head])
		if sub == nil {
			break
		}
		cmd = sub
		head++
	}
	takesValue := map[string]bool{}
	for _, f := range cmd.Flags {
		_, isBool := f.(*ucli.BoolFlag)
		for _, n := range f.Names() {
			takesValue[n] = !isBool
		}
	}
	var flags, positional []string
	rest := args[head:]
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		if a == "--" {
			positional = append(positional, rest[i+1:]...)
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			positional = append(positional, a)
			continue
		}
		flags = append(flags, a)
		name := strings.TrimLeft(a, "-")
		if strings.Contains(name, "=") {
			continue
		}
		if takesValue[name] {
			if i+1 == len(rest) {
				return append(append([]string(nil), args[:head]...), flags...)
			}
			i++
			flags = append(flags, rest[i])
		}
	}
	out := append(append([]string(nil), args[:head]...), flags...)
	if len(positional) > 0 {
		out = append(out, "--")
		out = append(out, positional...)
	}
	return out
}
