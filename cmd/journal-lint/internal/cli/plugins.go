package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	ucli "github.com/urfave/cli/v2"

	"github.com/r35157/journal-lint/internal/config"
	"github.com/r35157/journal-lint/internal/outpath"
	"github.com/r35157/journal-lint/internal/plugin"
	"github.com/r35157/journal-lint/internal/readfile"
)

// Rule packs see journal-lint's own version.
func init() { plugin.HostVersion = Version() }

func pluginsCommand() *ucli.Command {
	return &ucli.Command{
		Name:  "plugins",
		Usage: "list and pin rule packs (see docs/plugins.md)",
		UsageText: "journal-lint plugins [--config FILE] list\n   journal-lint plugins checksum PATH\n\n" +
			"Examples:\n   journal-lint plugins checksum bin/house-rules   (paste the lines under plugins:)\n" +
			"   journal-lint plugins --config .journal-lint.yaml list",
		Flags: []ucli.Flag{
			&ucli.StringFlag{Name: "config", Usage: "configuration `FILE` (default: .journal-lint.yaml in the working directory or a parent)"},
		},
		Subcommands: []*ucli.Command{
			{
				Name:  "list",
				Usage: "start each configured rule pack and show its checksum, versions and rules",
				UsageText: "journal-lint plugins [--config FILE] list\n\n" +
					"Verifies each pack of the configuration's plugins: against its sha256, starts it,\n" +
					"and prints what it says about itself. Exit codes: 0 every pack works, 1 a pack\n" +
					"failed, 2 configuration error (including a checksum mismatch).\n\n" +
					"Example:\n   journal-lint plugins --config .journal-lint.yaml list",
				Action: runPluginsList,
			},
			{
				Name:  "checksum",
				Usage: "print the sha256 of a rule pack as the lines to paste into .journal-lint.yaml",
				UsageText: "journal-lint plugins checksum PATH\n\n" +
					"The path printed is relative to the directory of the configuration file (--config, or\n" +
					"the .journal-lint.yaml a check here would use), as plugins: paths are; as given without one.\n\n" +
					"Example:\n   journal-lint plugins checksum bin/house-rules",
				Action: runPluginsChecksum,
			},
		},
	}
}

func runPluginsList(c *ucli.Context) error {
	if c.NArg() > 0 {
		return usageErrorf("plugins list takes no arguments")
	}
	s, err := loadSettingsWithPacks(c, "")
	if err != nil {
		return err
	}
	defer s.close()
	w := c.App.Writer
	if len(s.cfg.Plugins) == 0 {
		fmt.Fprintln(w, "no rule packs configured (add them under plugins: in .journal-lint.yaml; see docs/plugins.md)")
		return nil
	}
	for i, info := range s.packs.Infos() {
		if i > 0 {
			fmt.Fprintln(w)
		}
		writeInfo(c.Context, w, info, s.cfg)
	}
	failures := s.packs.Failures()
	for _, d := range failures {
		fmt.Fprintf(w, "\nerror: %s\n", d.Message)
	}
	if len(failures) > 0 {
		return findings()
	}
	return nil
}

// writeInfo prints one pack, its path shown as every output path is
// (package outpath), and each rule's severity as cfg sets it (rules:),
// with the pack's default beside it where they differ.
func writeInfo(ctx context.Context, w io.Writer, info plugin.Info, cfg *config.Config) {
	fmt.Fprintf(w, "%s %s", info.Name, orDash(info.Version))
	if info.PackName != info.Name {
		fmt.Fprintf(w, " (pack %s)", info.PackName)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "  path:           %s\n", outpath.Of(ctx, info.Path))
	fmt.Fprintf(w, "  sha256:         %s (verified)\n", info.SHA256)
	fmt.Fprintf(w, "  sdk:            %s\n", orDash(info.SDKVersion))
	hv := info.HostVersions
	if hv == "" {
		hv = "any"
	}
	fmt.Fprintf(w, "  journal-lint:   %s (this is %s)\n", hv, Version())
	pure := "no"
	if info.Pure {
		pure = "yes"
	}
	fmt.Fprintf(w, "  pure:           %s\n", pure)
	fmt.Fprintln(w, "  rules:")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, r := range info.Rules {
		sev, on := cfg.Severity(r.Code, r.DefaultSeverity)
		shown := sev.String()
		switch {
		case !on:
			shown = fmt.Sprintf("off (default %s)", r.DefaultSeverity)
		case sev != r.DefaultSeverity:
			shown = fmt.Sprintf("%s (default %s)", sev, r.DefaultSeverity)
		}
		fmt.Fprintf(tw, "    %s\t%s\t%s\n", r.Code, shown, r.Summary)
	}
	tw.Flush()
}

func orDash(s string) string {
	if strings.TrimSpace(s) == "" {
		return "-"
	}
	return s
}

func runPluginsChecksum(c *ucli.Context) error {
	if c.NArg() != 1 {
		return usageErrorf("plugins checksum takes one PATH, got %d arguments", c.NArg())
	}
	path := c.Args().First()
	shown, err := packPathFromConfig(c, path)
	if err != nil {
		return err
	}
	sum, err := plugin.Checksum(path)
	if err != nil {
		return usageErrorf("%v", err)
	}
	fmt.Fprintf(c.App.Writer, "plugins:\n  - path: %s\n    sha256: %s\n", shown, sum)
	return nil
}

// packPathFromConfig returns path (relative to the working directory) as
// the configuration writes a pack's path: relative to the directory of
// the configuration file that --config names or that a check here would
// find (config.Find), so that the printed lines can be pasted as they
// are; path as given when there is no configuration. Forward slashes.
func packPathFromConfig(c *ucli.Context, path string) (string, error) {
	cfg := c.String("config")
	if cfg == "" {
		wd, err := os.Getwd()
		if err != nil {
			return "", internalErrorf("working directory: %v", err)
		}
		if cfg, err = config.Find(wd); err != nil {
			return "", usageErrorf("%v", err)
		}
	}
	if cfg == "" {
		return filepath.ToSlash(path), nil
	}
	if _, err := os.Stat(cfg); err != nil {
		return "", usageErrorf("--config %s: %v", cfg, readfile.PathCause(err))
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", internalErrorf("%v", err)
	}
	dir, err := filepath.Abs(filepath.Dir(cfg))
	if err != nil {
		return "", internalErrorf("%v", err)
	}
	rel, err := filepath.Rel(dir, abs)
	if err != nil {
		return filepath.ToSlash(abs), nil // another volume: only an absolute path names it
	}
	return filepath.ToSlash(rel), nil
}
