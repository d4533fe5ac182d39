package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"

	ucli "github.com/urfave/cli/v2"

	"github.com/r35157/journal-lint/internal/memo"
)

// cacheFlag is --cache, on the commands that check a tree.
func cacheFlag() *ucli.StringFlag {
	return &ucli.StringFlag{Name: "cache", Value: "on",
		Usage: "persistent cache of findings, keyed by content: `MODE` on, off, verify (compute everything and fail on a cached answer that differs) or readonly (" + memo.EnvDir + " names the directory; off disables)"}
}

// openCache opens the cache a command uses as --cache and
// $JOURNAL_LINT_CACHE say: nil when it is off, or when it cannot be
// opened (a warning, not an error: the command runs without it; a
// read-only cache that does not exist yet is silently none; verify with
// the cache off says it verifies nothing). Warnings of
// the store go to stderr, once.
func openCache(c *ucli.Context) (*memo.Store, error) {
	mode, err := memo.ParseMode(c.String("cache"))
	if err != nil {
		return nil, usageErrorf("%v", err)
	}
	if mode == memo.Off {
		return nil, nil
	}
	dir, on, err := memo.Dir()
	if err != nil {
		return nil, usageErrorf("%v", err)
	}
	if !on {
		if mode == memo.Verify {
			fmt.Fprintf(c.App.ErrWriter, "journal-lint: cache: nothing to verify: the cache is off (%s=off)\n", memo.EnvDir)
		}
		return nil, nil
	}
	_, named := os.LookupEnv(memo.EnvDir)
	st, err := memo.Open(dir, mode, !named)
	switch {
	case mode == memo.ReadOnly && errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case err != nil:
		fmt.Fprintf(c.App.ErrWriter, "journal-lint: cache: %v; running without it\n", err)
		return nil, nil
	}
	st.Warn = func(msg string) { fmt.Fprintf(c.App.ErrWriter, "journal-lint: cache: %s\n", msg) }
	return st, nil
}

// packsDir returns the directory where the command keeps the verified
// copies of its rule packs (memo.PacksDir of the cache directory that
// openCache opens, the fallback under the temporary directory included,
// chosen by memo.Prepare without opening the store):
// "" when the command has no --cache, or it is not on (verify and readonly
// copy and verify every pack at every start), or the cache is off or
// cannot be opened.
func packsDir(c *ucli.Context) string {
	if c.String("cache") != memo.On.String() {
		return ""
	}
	dir, on, err := memo.Dir()
	if err != nil || !on {
		return ""
	}
	_, named := os.LookupEnv(memo.EnvDir)
	if dir, err = memo.Prepare(dir, !named); err != nil {
		return ""
	}
	return memo.PacksDir(dir)
}

// trimCache trims st by its own rules (memo.Store.Trim) at the end of a
// command that used it; a failure is a warning.
func trimCache(c *ucli.Context, st *memo.Store) {
	if st == nil {
		return
	}
	budget, err := memo.Budget()
	if err == nil {
		err = st.Trim(false, budget)
	}
	if err != nil {
		fmt.Fprintf(c.App.ErrWriter, "journal-lint: cache: not trimmed: %v\n", err)
	}
}

func cacheCommand() *ucli.Command {
	// locate returns the cache directory and whether it exists; a command
	// of its own never makes it (memo.Locate).
	locate := func(c *ucli.Context) (string, bool, error) {
		if c.NArg() > 0 {
			return "", false, usageErrorf("cache %s takes no arguments", c.Command.Name)
		}
		dir, on, err := memo.Dir()
		if err != nil {
			return "", false, usageErrorf("%v", err)
		}
		if !on {
			return "", false, usageErrorf("the cache is off (%s=off)", memo.EnvDir)
		}
		_, named := os.LookupEnv(memo.EnvDir)
		dir, exists := memo.Locate(dir, !named)
		return dir, exists, nil
	}
	// open opens the cache directory, or returns nil when there is none
	// yet; and the directory's path.
	open := func(c *ucli.Context) (*memo.Store, string, error) {
		dir, exists, err := locate(c)
		if err != nil || !exists {
			return nil, dir, err
		}
		st, err := memo.Open(dir, memo.On, false)
		if err != nil {
			return nil, dir, internalErrorf("%v", err)
		}
		return st, dir, nil
	}
	return &ucli.Command{
		Name:  "cache",
		Usage: "show, trim or clean the persistent cache",
		UsageText: "journal-lint cache path|stats|trim|clean\n\n" +
			"journal-lint keeps what its checks found in a cache directory, keyed by the content of\n" +
			"the Journals, the rules and the tool's build, so that a later check recomputes only what\n" +
			"changed, and the verified copies of the rule packs it ran, which then start without being\n" +
			"copied and hashed again. The directory is $" + memo.EnvDir + " when set (off disables the cache), else\n" +
			"journal-lint under the user's cache directory. Entries unused for five days are deleted\n" +
			"as checks run, and the cache is kept under $" + memo.EnvBudget + " (default 2G).\n\n" +
			"Examples:\n" +
			"   journal-lint cache path\n" +
			"   journal-lint cache stats\n" +
			"   journal-lint cache clean",
		Subcommands: []*ucli.Command{
			{
				Name:      "path",
				Usage:     "print the cache directory (which may not exist yet)",
				UsageText: "journal-lint cache path\n\nExample:\n   du -sh \"$(journal-lint cache path)\"",
				Action: func(c *ucli.Context) error {
					dir, _, err := locate(c)
					if err != nil {
						return err
					}
					fmt.Fprintln(c.App.Writer, dir)
					return nil
				},
			},
			{
				Name:  "stats",
				Usage: "print the size of the cache",
				UsageText: "journal-lint cache stats\n\n" +
					"entries counts the keys of the store (what a check looked up: records of artifacts,\n" +
					"summaries of trees), objects the stored values they name, packs the kept copies of\n" +
					"rule packs; size counts every file, used spans the least and most recent use.\n\n" +
					"Example:\n   journal-lint cache stats",
				Action: func(c *ucli.Context) error {
					st, dir, err := open(c)
					if err != nil {
						return err
					}
					var s memo.Stats
					if st != nil {
						s = st.Stats()
					}
					fmt.Fprintf(c.App.Writer, "directory: %s\nentries:   %d\nobjects:   %d\npacks:     %d\nsize:      %s\n", dir, s.Entries, s.Objects, s.Packs, byteSize(s.Bytes))
					if !s.Newest.IsZero() {
						fmt.Fprintf(c.App.Writer, "used:      %s to %s\n", s.Oldest.UTC().Format(time.RFC3339), s.Newest.UTC().Format(time.RFC3339))
					}
					return nil
				},
			},
			{
				Name:      "trim",
				Usage:     "delete entries unused for five days, then the least recently used beyond the budget",
				UsageText: "journal-lint cache trim\n\nThe budget is $JOURNAL_LINT_CACHE_BUDGET (see the README).\n\nExample:\n   journal-lint cache trim && journal-lint cache stats",
				Action: func(c *ucli.Context) error {
					st, _, err := open(c)
					if err != nil || st == nil {
						return err
					}
					budget, err := memo.Budget()
					if err != nil {
						return usageErrorf("%v", err)
					}
					before := st.Stats()
					if err := st.Trim(true, budget); err != nil {
						return internalErrorf("trimming the cache: %v", err)
					}
					reportFreed(c, "trimmed", before, st.Stats())
					return nil
				},
			},
			{
				Name:      "clean",
				Usage:     "delete every entry of the cache",
				UsageText: "journal-lint cache clean\n\nExample:\n   journal-lint cache clean",
				Action: func(c *ucli.Context) error {
					st, _, err := open(c)
					if err != nil || st == nil {
						return err
					}
					before := st.Stats()
					if err := st.Clean(); err != nil {
						return internalErrorf("cleaning the cache: %v", err)
					}
					reportFreed(c, "cleaned", before, st.Stats())
					return nil
				},
			},
		},
		Action: func(c *ucli.Context) error {
			if c.NArg() > 0 {
				return usageErrorf("unknown cache command %q%s (path, stats, trim or clean)", c.Args().First(), didYouMean(c.Args().First(), []string{"path", "stats", "trim", "clean"}))
			}
			return ucli.ShowSubcommandHelp(c)
		},
	}
}

// reportFreed says on stderr what trim or clean (done) removed: the
// difference between the cache's numbers before and after.
func reportFreed(c *ucli.Context, done string, before, after memo.Stats) {
	count := func(n int, one, many string) string {
		if n == 1 {
			return "1 " + one
		}
		return fmt.Sprintf("%d %s", n, many)
	}
	fmt.Fprintf(c.App.ErrWriter, "journal-lint: cache %s: %s, %s and %s removed, %s freed\n", done,
		count(before.Entries-after.Entries, "entry", "entries"), count(before.Objects-after.Objects, "object", "objects"),
		count(before.Packs-after.Packs, "rule-pack copy", "rule-pack copies"), byteSize(max(0, before.Bytes-after.Bytes)))
}

// byteSize formats n bytes with a binary unit.
func byteSize(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
