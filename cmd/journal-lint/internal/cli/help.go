package cli

import (
	"flag"

	ucli "github.com/urfave/cli/v2"
)

// urfave/cli v2 adds its help flag and help command to every app and
// command as they run, from package variables, and writes to them while
// it does: BoolFlag.Apply records the default of ucli.HelpFlag and
// ucli.VersionFlag on the flag, and Command.setup sets the HelpName and
// the slice separator of its one help command, and gives that command
// itself as a subcommand when it runs. Runs of [Main] at the same time in
// one process (tests run it in parallel) would race on them. So the shared
// flags define themselves on a copy of the flag (applyCopy), and every app
// and command built by newApp has a help command of its own (addHelp),
// which keeps urfave/cli from adding its shared one. The help, usage and
// version texts stay as urfave/cli writes them.

func init() {
	ucli.HelpFlag = &applyCopy{*ucli.HelpFlag.(*ucli.BoolFlag)}
	ucli.VersionFlag = &applyCopy{*ucli.VersionFlag.(*ucli.BoolFlag)}
}

// applyCopy is a boolean flag that many apps share: Apply defines a copy
// of it on the flag set, so that the shared value is only ever read.
type applyCopy struct{ ucli.BoolFlag }

// Apply defines the flag on set, as BoolFlag.Apply does, from a copy.
func (f *applyCopy) Apply(set *flag.FlagSet) error {
	c := f.BoolFlag
	return c.Apply(set)
}

// sharedHelp is urfave/cli's help command as App.Setup adds it to an app
// that has none, copied before any app runs.
var sharedHelp = func() ucli.Command {
	app := ucli.App{Name: "journal-lint", HideVersion: true}
	app.Setup()
	return *app.Command("help")
}()

// addHelp gives app a help command of its own and the help flag, as
// App.Setup would add urfave/cli's, and makes every command get a help
// command of its own just before it runs, as Command.setup would add
// urfave/cli's: the Before of the command above it adds it. urfave/cli
// runs no Before while it completes a command line for the shell, so
// then (args ends in the completion flag) every command gets its help
// command at once, to the depth that args can reach.
func addHelp(app *ucli.App, args []string) {
	app.Commands = append(app.Commands, newHelp())
	app.Flags = append(app.Flags, ucli.HelpFlag)
	if len(args) > 0 && args[len(args)-1] == "--generate-bash-completion" {
		var deep func(cmds []*ucli.Command, depth int)
		deep = func(cmds []*ucli.Command, depth int) {
			for _, c := range cmds {
				giveHelp(c)
				if depth > 1 {
					deep(c.Subcommands, depth-1)
				}
			}
		}
		deep(app.Commands, len(args))
		return
	}
	app.Before = helpForNext
	var before func(cmds []*ucli.Command)
	before = func(cmds []*ucli.Command) {
		for _, c := range cmds {
			c.Before = helpForNext
			before(c.Subcommands)
		}
	}
	before(app.Commands)
}

// helpForNext is the Before of the app and of every command: it gives the
// command about to run its help command.
func helpForNext(c *ucli.Context) error {
	if next := c.Command.Command(c.Args().First()); next != nil {
		giveHelp(next)
	}
	return nil
}

// giveHelp adds a help command to c's subcommands, unless one is named
// help or help is hidden.
func giveHelp(c *ucli.Command) {
	if c.Command("help") == nil && !c.HideHelp && !c.HideHelpCommand {
		c.Subcommands = append(c.Subcommands, newHelp())
	}
}

// newHelp returns a copy of urfave/cli's help command.
func newHelp() *ucli.Command {
	h := sharedHelp
	h.Before = helpForNext
	return &h
}
