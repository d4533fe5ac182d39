// Package cli is the journal-lint command line: an urfave/cli/v2 app whose
// commands never call os.Exit. [Main] runs it and maps every outcome to one
// of the documented exit codes in one place.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"regexp"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"

	"github.com/Masterminds/semver/v3"

	ucli "github.com/urfave/cli/v2"

	"github.com/r35157/journal-lint/internal/gitrepo"
	"github.com/r35157/journal-lint/internal/safetext"
	"github.com/r35157/journal-lint/suggest"
)

// Exit codes of journal-lint (documented in the README).
const (
	// ExitOK: no error-severity diagnostic (and warnings within --max-warnings).
	ExitOK = 0
	// ExitFindings: at least one error-severity diagnostic, or more warnings
	// than --max-warnings allows, or diff findings at the --fail-on level.
	ExitFindings = 1
	// ExitUsage: bad command line, bad configuration, or input that cannot
	// be compared or read as asked.
	ExitUsage = 2
	// ExitInternal: journal-lint itself failed (an I/O error writing output,
	// a bug).
	ExitInternal = 3
)

// exitError carries an exit code through urfave/cli back to Main.
type exitError struct {
	code int
	err  error // nil: nothing more to print
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit %d", e.code)
	}
	return e.err.Error()
}

func (e *exitError) Unwrap() error { return e.err }

// usageErrorf returns an error that makes Main print msg and exit with ExitUsage.
func usageErrorf(format string, args ...any) error {
	return &exitError{code: ExitUsage, err: fmt.Errorf(format, args...)}
}

// internalErrorf returns an error that makes Main exit with ExitInternal.
func internalErrorf(format string, args ...any) error {
	return &exitError{code: ExitInternal, err: fmt.Errorf(format, args...)}
}

// findings returns the silent error for "diagnostics were reported".
func findings() error { return &exitError{code: ExitFindings} }

// version is the journal-lint version; release builds set it with
// -ldflags "-X github.com/r35157/journal-lint/cmd/journal-lint/internal/cli.version=v1.2.3".
var version = ""

// Version returns the journal-lint version: the linker-set value, else the
// module version from the build information, else "devel".
func Version() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "devel"
}

// SemVer returns the journal-lint version as a SemVer 2.0.0 string without
// a "v": [Version] when it is one (a release such as "1.2.0", or the
// pseudo-version "0.0.0-20261130193000-abcdef123456+dirty" that the go
// command stamps from git), else "0.0.0" for a development build. SARIF
// needs it: tool.driver.version must start with a digit, and
// semanticVersion must be SemVer.
func SemVer() string {
	v := strings.TrimPrefix(Version(), "v")
	if _, err := semver.StrictNewVersion(v); err != nil {
		return "0.0.0"
	}
	return v
}

// Main runs journal-lint with args (args[0] is the program name), writing to
// stdout and stderr, and returns the exit code. It never calls os.Exit and
// never lets a panic escape as a trace for a user mistake: a panic is
// reported as an internal error (ExitInternal).
func Main(args []string, stdout, stderr io.Writer) (code int) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "journal-lint: internal error: %v\n%s", r, debug.Stack())
			code = ExitInternal
		}
	}()
	// The first Ctrl-C (or SIGTERM, what CI runners and process managers
	// send) cancels the run, which then ends as soon as it can, with every
	// temporary file removed, with 128 plus the signal's number (as a
	// shell reports it); a second one gets the default action back and
	// ends the process at once.
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	interrupt, cancel := context.WithCancel(context.Background())
	defer func() { signal.Stop(sigs); cancel() }()
	var received atomic.Int32
	go func() {
		select {
		case s := <-sigs:
			if n, ok := s.(syscall.Signal); ok {
				received.Store(int32(n))
			}
			signal.Stop(sigs)
			cancel()
		case <-interrupt.Done():
		}
	}()
	// A command asks git each question once (gitrepo.WithMemo); the
	// language server, which runs while the user works, opts out.
	ctx := gitrepo.WithMemo(interrupt)
	out := &checkedWriter{w: stdout}
	app := newApp(out, stderr, args)
	err := app.RunContext(ctx, interspersed(app, args))
	if n := received.Load(); n != 0 {
		fmt.Fprintln(stderr, "journal-lint: interrupted")
		return 128 + int(n)
	}
	if out.err != nil && errors.Is(err, out.err) {
		err = nil // the failed write itself: out.exit reports it
	}
	return out.exit(exitCode(err, stderr), stderr)
}

// exitCode maps the error of a run to an exit code, printing it.
func exitCode(err error, stderr io.Writer) int {
	if err == nil {
		return ExitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil {
			fmt.Fprintf(stderr, "journal-lint: %s\n", safetext.Lines(ee.err.Error()))
		}
		return ee.code
	}
	if errors.Is(err, context.Canceled) {
		fmt.Fprintln(stderr, "journal-lint: interrupted")
		return exitInterrupted
	}
	// Errors urfave/cli returns itself (unknown flags, bad values, missing
	// arguments) are usage errors.
	fmt.Fprintf(stderr, "journal-lint: %s\n", safetext.Lines(err.Error()))
	return ExitUsage
}

func newApp(stdout, stderr io.Writer, args []string) *ucli.App {
	app := &ucli.App{
		Name:    "journal-lint",
		Usage:   "check Nenjim Journal repositories",
		Version: Version(),
		// --file takes paths, whose commas are part of them: repeated
		// flags, never a comma, give several.
		DisableSliceFlagSeparator: true,
		Description: "journal-lint loads a Journal tree (<root>/<coordinate>/<timestamp>.journal) through the\n" +
			"same validation pipeline as the Journal service and reports every violation.\n\n" +
			"Exit codes: 0 clean, 1 findings, 2 usage or configuration error, 3 journal-lint failed;\n" +
			"130 interrupted, 143 terminated, 141 standard output closed by its reader (README).",
		Writer:               stdout,
		ErrWriter:            stderr,
		EnableBashCompletion: true,
		HideVersion:          false,
		ExitErrHandler:       func(*ucli.Context, error) {}, // Main maps errors; never os.Exit here
		OnUsageError:         onUsageError,
		Commands: []*ucli.Command{
			cacheCommand(),
			checkCommand(),
			completionCommand(),
			diffCommand(),
			digestCommand(),
			logCommand(),
			lspCommand(),
			newCommand(),
			pluginsCommand(),
			showCommand(),
			rulesCommand(),
			tlogCommand(),
			versionCommand(),
		},
		Action: func(c *ucli.Context) error {
			if c.NArg() > 0 {
				return unknownCommand(c.App, c.Args().First())
			}
			return ucli.ShowAppHelp(c)
		},
		CommandNotFound: func(c *ucli.Context, name string) {
			fmt.Fprintf(c.App.ErrWriter, "journal-lint: %v\n", unknownCommand(c.App, name))
		},
	}
	var withUsageErrors func([]*ucli.Command)
	withUsageErrors = func(cmds []*ucli.Command) {
		for _, cmd := range cmds {
			cmd.OnUsageError = onUsageError
			withUsageErrors(cmd.Subcommands)
		}
	}
	withUsageErrors(app.Commands)
	addHelp(app, args)
	return app
}

// unknownCommand is the usage error for a command name that does not
// exist, with the nearest command name.
func unknownCommand(app *ucli.App, name string) error {
	var names []string
	for _, cmd := range app.Commands {
		names = append(names, cmd.Names()...)
	}
	return usageErrorf("unknown command %q%s (see journal-lint --help)", name, didYouMean(name, names))
}

// didYouMean returns `; did you mean "X"?` for the candidate nearest to s
// (package suggest), or "".
func didYouMean(s string, candidates []string) string {
	if c := suggest.Closest(s, candidates); c != "" {
		return fmt.Sprintf("; did you mean %q?", c)
	}
	return ""
}

// undefinedFlag matches the error of the flag package for an unknown flag;
// compiled on first use.
var undefinedFlag = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^flag provided but not defined: -+(.+)$`) })

// onUsageError turns the flag errors of urfave/cli into usage errors that
// show the flag as written (--formt, not -formt), suggest the nearest flag
// of the command, and point to its help.
func onUsageError(c *ucli.Context, err error, _ bool) error {
	name := "journal-lint"
	var flags []ucli.Flag
	if c.Command != nil && c.Command.Name != "" && c.Command.Name != name {
		name += " " + commandPath(c)
		flags = c.Command.Flags
	} else {
		flags = c.App.Flags
	}
	if m := undefinedFlag().FindStringSubmatch(err.Error()); m != nil {
		var names []string
		for _, f := range flags {
			for _, n := range f.Names() {
				if len(n) > 1 {
					names = append(names, n)
				}
			}
		}
		msg := "unknown flag " + flagSpelling(m[1])
		if s := suggest.Closest(m[1], names); s != "" {
			msg += "; did you mean " + flagSpelling(s) + "?"
		}
		return usageErrorf("%s (see %s --help)", msg, name)
	}
	return usageErrorf("%v (see %s --help)", err, name)
}

// commandPath names the command of c with the commands above it, such as
// "tlog append".
func commandPath(c *ucli.Context) string {
	var names []string
	for _, ctx := range c.Lineage() {
		if ctx.Command != nil && ctx.Command.Name != "" && ctx.Command.Name != c.App.Name {
			names = append([]string{ctx.Command.Name}, names...)
		}
	}
	return strings.Join(slices.Compact(names), " ")
}

// flagSpelling writes a flag name as on the command line: -f or --format.
func flagSpelling(n string) string {
	if len(n) == 1 {
		return "-" + n
	}
	return "--" + n
}
