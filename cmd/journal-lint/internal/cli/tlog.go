package cli

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	ucli "github.com/urfave/cli/v2"
	sumdb "golang.org/x/mod/sumdb/tlog"

	"github.com/r35157/journal-lint/internal/check"
	"github.com/r35157/journal-lint/internal/config"
	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/gitrepo"
	"github.com/r35157/journal-lint/internal/load"
	"github.com/r35157/journal-lint/internal/outpath"
	"github.com/r35157/journal-lint/internal/readfile"
	"github.com/r35157/journal-lint/internal/render"
	"github.com/r35157/journal-lint/internal/safetext"
	"github.com/r35157/journal-lint/internal/syntax"
	"github.com/r35157/journal-lint/internal/tlog"
	jtlog "github.com/r35157/journal-lint/journal/tlog"
	"github.com/r35157/journal-lint/rules"
)

// keyEnv names the environment variable that holds the log's signing key.
const keyEnv = "JOURNAL_LINT_TLOG_KEY"

// tlogRootFlags are the flags of the tlog commands that read the tree:
// rootFlags without --examples, since example files are never logged.
func tlogRootFlags() []ucli.Flag {
	var out []ucli.Flag
	for _, f := range rootFlags() {
		if f.Names()[0] != "examples" {
			out = append(out, f)
		}
	}
	return out
}

func tlogCommand() *ucli.Command {
	keyFile := &ucli.StringFlag{Name: "key-file", Usage: "read the log's signing key from `FILE` (default: $" + keyEnv + "); never a file of the repository"}
	return &ucli.Command{
		Name:  "tlog",
		Usage: "keep and check the transparency log of accepted revisions (journal-log/, docs/tlog.md)",
		UsageText: "journal-lint tlog init --origin ORIGIN --key-file FILE\n" +
			"journal-lint tlog append [--sign]\n" +
			"journal-lint tlog verify [--against REV]\n" +
			"journal-lint tlog audit --state DIR\n" +
			"journal-lint tlog witness\n" +
			"journal-lint tlog prove FILE [--out PROOF]\n" +
			"journal-lint tlog verify-proof --policy FILE [--state DIR] [--log DIR] FILE PROOF\n\n" +
			"The log lives in journal-log/ beside the Journal root; its public key is the tlog: block\n" +
			"of the configuration. A log proves that the accepted revisions only ever grow, not that they\n" +
			"are valid (that is check).\n" +
			"Exit codes: 0 done or verified, 1 a verification failed, 2 usage or configuration error,\n" +
			"3 journal-lint failed.\n\n" +
			"Examples:\n" +
			"   journal-lint tlog append --sign   (after a merge to the default branch)\n" +
			"   journal-lint tlog verify --against origin/main",
		Subcommands: []*ucli.Command{
			{
				Name:  "init",
				Usage: "make a new key pair and the log's size-0 checkpoint",
				UsageText: "journal-lint tlog init --origin ORIGIN --key-file FILE\n\n" +
					"Example:\n" +
					"   journal-lint tlog init --origin journals.example.org/registry --key-file ~/registry.key >> .journal-lint.yaml",
				Flags: append(tlogRootFlags(),
					&ucli.StringFlag{Name: "origin", Required: true, Usage: "the log's `ORIGIN`, a name no other log uses (such as the registry's host and path)"},
					&ucli.StringFlag{Name: "key-file", Required: true, Usage: "the signing key's `FILE`, outside the repository: made with a new key unless it exists"},
				),
				Action: tlogInit,
			},
			{
				Name:  "append",
				Usage: "append every accepted revision not yet logged, in the batch order",
				UsageText: "journal-lint tlog append [--sign]\n\n" +
					"Loads the tree (a tree with validity errors is refused), takes every accepted revision the\n" +
					"log lacks in bytewise order of its root-relative path, and prints the checkpoint that\n" +
					"results. Without --sign nothing is written. Running it again adds nothing.\n\n" +
					"Example:\n" +
					"   journal-lint tlog append --sign --key-file ~/registry.key",
				Flags:  append(tlogRootFlags(), &ucli.BoolFlag{Name: "sign", Usage: "sign and write the new checkpoint and tiles"}, keyFile),
				Action: tlogAppend,
			},
			{
				Name:  "verify",
				Usage: "verify the log's signature and tiles, the tree against the log, and growth since REV",
				UsageText: "journal-lint tlog verify [--against REV]\n\n" +
					"Example:\n" +
					"   journal-lint tlog verify --against origin/main",
				Flags: append(tlogRootFlags(),
					&ucli.StringFlag{Name: "against", Usage: "also prove that the checkpoint extends the one at git revision `REV`"}),
				Action: tlogVerify,
			},
			{
				Name:  "witness",
				Usage: "ask the configured witnesses to cosign the checkpoint (C2SP tlog-witness)",
				UsageText: "journal-lint tlog witness\n\n" +
					"Sends the checkpoint, with a consistency proof from the size each witness holds, to the\n" +
					"add-checkpoint endpoint of every witness of the tlog: block and adds their cosignatures to\n" +
					"journal-log/checkpoint. A witness that refuses is reported; the others' cosignatures stay.\n" +
					"With no witnesses listed it says so and does nothing.\n\n" +
					"Example:\n" +
					"   journal-lint tlog witness && git add journal-log",
				Flags: append(tlogRootFlags(),
					&ucli.DurationFlag{Name: "timeout", Value: 30 * time.Second, Usage: "give up on a witness after `DURATION`"}),
				Action: tlogWitness,
			},
			{
				Name:  "audit",
				Usage: "a mirror's check: verify, and that the checkpoint extends the last one audited",
				UsageText: "journal-lint tlog audit --state DIR\n\n" +
					"Everything tlog verify checks, then the consistency of the checkpoint with the one this\n" +
					"mirror audited last, kept in DIR (and replaced by the newer one).\n\n" +
					"Example:\n" +
					"   journal-lint tlog audit --state ~/.local/state/registry-audit",
				Flags: append(tlogRootFlags(),
					&ucli.StringFlag{Name: "state", Required: true, Usage: "`DIR` that keeps the last audited checkpoint"}),
				Action: tlogVerify,
			},
			{
				Name:  "prove",
				Usage: "write the C2SP tlog-proof that a Journal file is in the log",
				UsageText: "journal-lint tlog prove [--out FILE] FILE\n\n" +
					"Example:\n" +
					"   journal-lint tlog prove journals/com.example.widget/20260110T080000Z.journal > widget.tlog-proof",
				Flags:  append(tlogRootFlags(), &ucli.StringFlag{Name: "out", Usage: "write the proof to `FILE` instead of standard output"}),
				Action: tlogProve,
			},
			{
				Name:  "verify-proof",
				Usage: "the client's check: FILE is in the log by PROOF, signed by the trusted key",
				UsageText: "journal-lint tlog verify-proof --policy FILE [--state DIR] [--log DIR] FILE PROOF\n\n" +
					"Offline. With --state, remembers the newest checkpoint seen and refuses one that the log\n" +
					"could not have signed after it (a split view); --log names a journal-log/ directory whose\n" +
					"tiles prove two checkpoints of different sizes consistent.\n\n" +
					"Example:\n" +
					"   journal-lint tlog verify-proof --policy registry.yaml --state ~/.cache/registry widget.journal widget.tlog-proof",
				Flags: []ucli.Flag{
					&ucli.StringFlag{Name: "policy", Usage: "`FILE` with the trusted log's tlog: block (origin, vkey), as tlog init prints it"},
					&ucli.StringFlag{Name: "vkey", Usage: "the log's public key `VKEY`, obtained out of band (instead of --policy)"},
					&ucli.StringFlag{Name: "state", Usage: "`DIR` that keeps the newest checkpoint seen"},
					&ucli.StringFlag{Name: "log", Usage: "journal-log `DIR` of a clone or mirror, for consistency proofs"},
				},
				Action: tlogVerifyProof,
			},
		},
	}
}

// logSettings loads the settings of a tlog command that reads the tree and
// returns them with the log's directory and, when needKey, requires the
// configuration's tlog: block.
func logSettings(c *ucli.Context, needKey bool) (*settings, string, error) {
	s, err := loadSettings(c, c.String("root"))
	if err != nil {
		return nil, "", err
	}
	if err := s.requireRoot(); err != nil {
		return nil, "", err
	}
	if needKey && s.cfg.TLog.VKey == "" {
		return nil, "", usageErrorf("the configuration has no tlog: block with the log's origin and vkey (journal-lint tlog init prints it)")
	}
	return s, tlog.DirFor(s.root), nil
}

// shownLog is the output path of a file of the log directory.
func shownLog(c *ucli.Context, s *settings, name string) string {
	return outpath.Join(outpath.Prefix(c.Context, s.root), "../"+tlog.DirName+"/"+name)
}

// outsideRepository refuses a key file inside the git work tree of root:
// the signing key must never be committed.
func outsideRepository(ctx context.Context, root, file string) error {
	repo, err := gitrepo.Open(ctx, root)
	if err != nil {
		return nil
	}
	if _, err := repo.Rel(file); err == nil {
		return usageErrorf("--key-file %s lies inside the repository: keep the signing key outside it (a CI secret, $%s)", safetext.Text(file), keyEnv)
	}
	return nil
}

func tlogInit(c *ucli.Context) error {
	s, dir, err := logSettings(c, false)
	if err != nil {
		return err
	}
	keyFile, origin := c.String("key-file"), c.String("origin")
	if err := outsideRepository(c.Context, s.root, keyFile); err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(dir, tlog.CheckpointFile)); err == nil {
		return usageErrorf("%s already holds a log", shownLog(c, s, ""))
	}
	skey, vkey, made, err := initKey(keyFile, origin)
	if err != nil {
		return err
	}
	if _, err := tlog.Init(dir, skey); err != nil {
		if made {
			os.Remove(keyFile)
		}
		return usageErrorf("%v", err)
	}
	how := "read the signing key from"
	if made {
		how = "wrote the new signing key to"
	}
	fmt.Fprintf(c.App.ErrWriter, "journal-lint: wrote %s (size 0) and %s %s (keep it secret: the operator's $%s); add the tlog: block below to %s\n",
		shownLog(c, s, tlog.CheckpointFile), how, safetext.Text(keyFile), keyEnv, configName(c, s))
	fmt.Fprintf(c.App.Writer, "tlog:\n  origin: %s\n  vkey: %s\n", origin, vkey)
	return nil
}

// initKey returns the key pair of a new log named origin: from keyFile
// when it exists (a key kept from before), else a new pair, written to
// keyFile (made reports that).
func initKey(keyFile, origin string) (skey, vkey string, made bool, err error) {
	if b, rerr := readfile.Read(keyFile, readfile.Options{Max: 4096}); rerr == nil {
		skey = strings.TrimSpace(string(b))
		if vkey, err = tlog.VerifierKey(skey); err != nil {
			return "", "", false, usageErrorf("--key-file %s: %v", safetext.Text(keyFile), err)
		}
		if name, _, _ := strings.Cut(vkey, "+"); name != origin {
			return "", "", false, usageErrorf("--key-file %s holds the key of %q, not of --origin %q", safetext.Text(keyFile), name, origin)
		}
		return skey, vkey, false, nil
	}
	skey, vkey, err = tlog.GenerateKey(origin)
	if err != nil {
		return "", "", false, usageErrorf("--origin: %v", err)
	}
	f, err := os.OpenFile(keyFile, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return "", "", false, usageErrorf("--key-file: %v", err)
	}
	_, err = fmt.Fprintln(f, skey)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", "", false, internalErrorf("writing the signing key: %v", err)
	}
	return skey, vkey, true, nil
}

// configName names the configuration file in messages, by the rule for
// output paths (repository-relative, else relative to the working
// directory).
func configName(c *ucli.Context, s *settings) string {
	if s.cfg.File != "" {
		return safetext.Text(outpath.Of(c.Context, s.cfg.File))
	}
	return ".journal-lint.yaml"
}

// signingKey returns the log's private key: --key-file, else $keyEnv.
func signingKey(c *ucli.Context, root string) (string, error) {
	if f := c.String("key-file"); f != "" {
		if err := outsideRepository(c.Context, root, f); err != nil {
			return "", err
		}
		b, err := readfile.Read(f, readfile.Options{Max: 4096})
		if err != nil {
			return "", usageErrorf("--key-file: %s", safetext.Text(err.Error()))
		}
		return strings.TrimSpace(string(b)), nil
	}
	if k := strings.TrimSpace(os.Getenv(keyEnv)); k != "" {
		if !strings.HasPrefix(k, "PRIVATE+KEY+") {
			return "", usageErrorf("$%s holds no private note key (PRIVATE+KEY+…): it holds the key itself (for a file, pass --key-file FILE)", keyEnv)
		}
		return k, nil
	}
	return "", usageErrorf("--sign needs the log's signing key: --key-file FILE or $%s", keyEnv)
}

// accepted loads the tree and returns its accepted revisions. With strict
// a tree with a validity error is refused: the operator logs only what the
// gate let in; an audit compares the log with whatever was accepted.
func accepted(ctx context.Context, s *settings, strict bool) ([]tlog.Revision, *load.Result, error) {
	res, err := load.Load(ctx, s.root, load.Options{DropDocs: true, KeepState: true})
	if err != nil {
		return nil, nil, err
	}
	if strict && !res.Valid() {
		return nil, nil, &exitError{code: ExitFindings, err: fmt.Errorf("the tree has %s: only a valid tree is logged (journal-lint check lists them)", plural(validityErrors(res), "validity error"))}
	}
	var out []tlog.Revision
	for e := range res.State.All() {
		out = append(out, tlog.Revision{Path: e.Source, Entry: tlog.EntryOf(e.Revision)})
	}
	return out, res, nil
}

// validityErrors counts the validity errors of a load (rules.IsValidity).
func validityErrors(res *load.Result) int {
	n := 0
	for _, d := range res.Diagnostics {
		if d.Severity == diag.Error && rules.IsValidity(d.Code) {
			n++
		}
	}
	return n
}

// openConfiguredLog loads the settings of a tlog command that needs the
// configured log (logSettings) and reads its verified checkpoint (openLog).
func openConfiguredLog(c *ucli.Context) (*settings, string, tlog.Signed, error) {
	s, dir, err := logSettings(c, true)
	if err != nil {
		return nil, "", tlog.Signed{}, err
	}
	cp, err := openLog(c, s, dir)
	return s, dir, cp, err
}

// openLog reads and verifies the log's checkpoint with the configured key.
func openLog(c *ucli.Context, s *settings, dir string) (tlog.Signed, error) {
	cp, err := tlog.ReadCheckpoint(tlog.DirFS(dir), s.cfg.TLog.VKey)
	if errors.Is(err, fs.ErrNotExist) {
		shown := shownLog(c, s, tlog.CheckpointFile)
		if repo, rerr := gitrepo.Open(c.Context, filepath.Dir(dir)); rerr == nil {
			if rel, rerr := repo.Rel(filepath.Join(dir, tlog.CheckpointFile)); rerr == nil {
				if entries, terr := repo.Tree(c.Context, "HEAD", rel); terr == nil && len(entries) > 0 {
					return tlog.Signed{}, usageErrorf("%s does not exist, and HEAD holds it: restore it (git checkout HEAD -- %s); a new log (tlog init) would start another history", shown, safetext.ShellWord(":/"+rel))
				}
			}
		}
		return tlog.Signed{}, usageErrorf("%s does not exist: journal-lint tlog init makes a log", shown)
	}
	if err != nil {
		return tlog.Signed{}, &exitError{code: ExitFindings, err: fmt.Errorf("%s: %v [%s]", shownLog(c, s, tlog.CheckpointFile), err, rules.TLogBadCheckpoint)}
	}
	return cp, nil
}

func tlogAppend(c *ucli.Context) error {
	s, dir, cp, err := openConfiguredLog(c)
	if err != nil {
		return err
	}
	skey := ""
	if c.Bool("sign") {
		if skey, err = signingKey(c, s.root); err != nil {
			return err
		}
		if err := tlog.CheckSigner(skey, s.cfg.TLog.VKey); err != nil {
			return usageErrorf("%v; nothing appended", err)
		}
	}
	batch, res, err := accepted(c.Context, s, true)
	if err != nil {
		return err
	}
	plan, err := tlog.Prepare(tlog.DirFS(dir), cp, batch)
	if err != nil {
		return &exitError{code: ExitFindings, err: fmt.Errorf("%s: %v [%s]", shownLog(c, s, ""), err, rules.TLogBadTiles)}
	}
	// A tree that lost a logged revision, or a log out of order, is not
	// signed over: the operator's job stops and shows why.
	var broken diag.List
	for _, d := range tlog.Audit(0, plan.Leaves, batch, "../"+tlog.DirName+"/"+tlog.CheckpointFile) {
		if d.Severity == diag.Error {
			broken = append(broken, d)
		}
	}
	if len(broken) > 0 {
		if err := writeLogReport(c, s, broken, res); err != nil {
			return err
		}
		return &exitError{code: ExitFindings, err: errors.New("nothing appended: the tree does not hold every logged revision (see docs/tlog.md)")}
	}
	how := " (a preview: --sign signs and writes it)"
	if c.Bool("sign") {
		if _, err := plan.Write(dir, skey); err != nil {
			if errors.Is(err, tlog.ErrBusy) {
				return &exitError{code: ExitFindings, err: err}
			}
			return usageErrorf("%v", err)
		}
		how = ""
	}
	fmt.Fprintf(c.App.Writer, "%s: size %d (+%d) root %s%s\n", shownLog(c, s, tlog.CheckpointFile), plan.New.N, len(plan.Added), plan.New.Hash, how)
	return nil
}

func tlogVerify(c *ucli.Context) error {
	s, dir, cp, err := openConfiguredLog(c)
	if err != nil {
		return err
	}
	checkpoint := "../" + tlog.DirName + "/" + tlog.CheckpointFile
	batch, res, err := accepted(c.Context, s, false)
	if err != nil {
		return err
	}
	if !res.Valid() {
		// An edited or deleted revision breaks its chain too: the log's
		// findings below follow from what check reports first.
		fmt.Fprintf(c.App.ErrWriter, "journal-lint: the tree has %s, so its revisions past them are not accepted: journal-lint check lists them\n",
			plural(validityErrors(res), "validity error"))
	}
	var ds diag.List
	// The witnesses' lines are outside what the log's key signs.
	if _, err := tlog.Cosignatures(cp.Note, s.cfg.TLog.WitnessKeys()); err != nil {
		ds = append(ds, diag.Diagnostic{Code: rules.TLogBadCheckpoint, Severity: diag.Error, Path: checkpoint, Range: diag.FileStart,
			Message: fmt.Sprintf("a cosignature of a witness of the tlog: block does not verify: %v", err),
			Help:    "run journal-lint tlog witness again, which replaces each witness's lines"})
	}
	against := ""
	var base *baseLog
	if rev := c.String("against"); rev != "" {
		var d diag.List
		base, d, err = extendsRevision(c.Context, s, dir, cp, rev, checkpoint)
		if err != nil {
			return usageErrorf("--against: %v", err)
		}
		if len(d) == 0 {
			against = fmt.Sprintf(", extends the checkpoint at %s", safetext.Text(rev))
		}
		ds = append(ds, d...)
	}
	audit, ok := base.auditSince(c.Context, dir, cp, batch, checkpoint)
	if !ok {
		audit = nil
		if leaves, err := tlog.Leaves(tlog.DirFS(dir), cp.Tree); err != nil {
			audit = diag.List{{Code: rules.TLogBadTiles, Severity: diag.Error, Path: checkpoint, Range: diag.FileStart,
				Message: fmt.Sprintf("the tiles do not match the checkpoint (size %d): %v", cp.N, err)}}
		} else {
			audit = tlog.Audit(0, leaves, batch, checkpoint)
		}
	}
	ds = append(ds, audit...)
	if strays, err := tlog.Strays(os.DirFS(dir), cp.N); err == nil {
		for _, p := range strays {
			msg := fmt.Sprintf("this file is neither the checkpoint nor a tile of the log at size %d: remove it", cp.N)
			if p == tlog.LockFile {
				msg = "an append's lock: unless an append is writing the log now, remove it (it stops the next append)"
			}
			ds = append(ds, diag.Diagnostic{Code: rules.TLogStrayFile, Severity: diag.Warning, Path: "../" + tlog.DirName + "/" + p, Range: diag.FileStart, Message: msg})
		}
	}
	if st := c.String("state"); st != "" && !slices.ContainsFunc(audit, func(d diag.Diagnostic) bool { return d.Code == rules.TLogBadTiles }) {
		hashes := func(tr sumdb.Tree) sumdb.HashReader { return tlog.Hashes(tlog.DirFS(dir), tr) }
		_, serr := os.Stat(tlog.StateFile(st, cp.Origin))
		first := errors.Is(serr, fs.ErrNotExist)
		if _, err := tlog.Remember(st, cp, s.cfg.TLog.VKey, hashes); err != nil {
			ds = append(ds, inconsistent(checkpoint, fmt.Sprintf("the checkpoint does not extend the last one audited (--state %s)", safetext.Text(st)), err))
		} else if first {
			against += ", the first audited checkpoint (kept in --state)"
		} else {
			against += ", extends the last audited checkpoint"
		}
	}
	if err := writeLogReport(c, s, ds, res); err != nil {
		return err
	}
	for _, d := range ds {
		if d.Severity == diag.Error {
			return findings()
		}
	}
	fmt.Fprintf(c.App.Writer, "%s: verified: %s%s\n", tlog.DirName, cp.Checkpoint, against)
	return nil
}

// writeLogReport writes the findings of a tlog command in the text format
// of check, with the counts of res when there is a load result.
func writeLogReport(c *ucli.Context, s *settings, ds diag.List, res *load.Result) error {
	ds.Sort()
	report := render.Report{Root: s.root, Diagnostics: ds, Rule: ruleInfo,
		Tool: render.ToolInfo{Name: "journal-lint", Version: SemVer(), InformationURI: informationURI}}
	if res != nil {
		report.Summary = render.Summary{Files: len(res.Files), Artifacts: res.Artifacts, Revisions: res.Revisions}
	}
	if err := render.Write(c.App.Writer, render.Text, report, render.Options{PathPrefix: outpath.Prefix(c.Context, s.root)}); err != nil {
		return internalErrorf("writing output: %v", err)
	}
	return nil
}

// baseLog is the log as the git revision of `tlog verify --against`
// holds it, once its checkpoint verified and the current one extends it.
type baseLog struct {
	repo   *gitrepo.Repo
	commit string      // the revision's commit
	rel    string      // the log's directory relative to the top of the work tree
	root   string      // the Journal root relative to it
	old    tlog.Signed // its checkpoint
}

// extendsRevision proves that cp extends the checkpoint of the log at the
// git revision rev (a revision without a log has nothing to extend). Its
// findings are tlog/bad-checkpoint and tlog/inconsistent; the error is one
// of git. The base log is nil unless rev has a checkpoint that cp extends.
func extendsRevision(ctx context.Context, s *settings, dir string, cp tlog.Signed, rev, checkpoint string) (*baseLog, diag.List, error) {
	repo, err := gitrepo.Open(ctx, s.root)
	if err != nil {
		return nil, nil, err
	}
	commit, err := repo.ResolveCommit(ctx, rev)
	if err != nil {
		return nil, nil, err
	}
	rel, err := repo.Rel(dir)
	if err != nil {
		return nil, nil, err
	}
	old, err := tlog.ReadCheckpoint(tlog.GitFS{Ctx: ctx, Repo: repo, Commit: commit, Dir: rel}, s.cfg.TLog.VKey)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, diag.List{{Code: rules.TLogBadCheckpoint, Severity: diag.Error, Path: checkpoint, Range: diag.FileStart,
			Message: fmt.Sprintf("the checkpoint at %s: %v", safetext.Text(rev), err)}}, nil
	}
	hashes := func(tr sumdb.Tree) sumdb.HashReader { return tlog.Hashes(tlog.DirFS(dir), tr) }
	if err := tlog.Consistent(old, cp, hashes); err != nil || old.N > cp.N {
		return nil, diag.List{inconsistent(checkpoint, fmt.Sprintf("the checkpoint (size %d) does not extend the one at %s (size %d)", cp.N, safetext.Text(rev), old.N), err)}, nil
	}
	root, err := repo.Rel(s.root)
	if err != nil {
		return nil, nil, err
	}
	return &baseLog{repo: repo, commit: commit, rel: rel, root: root, old: old}, nil, nil
}

// auditSince audits the tree (batch) against the log whose checkpoint cp
// extends the base's, by the leaves past the base's size only ("What
// --against trusts" in docs/tlog.md): against the revisions added since
// the log commit, the newest commit at or before the base revision that
// changed the checkpoint. tlog append audited that commit's tree against
// every leaf before it signed, and a file git reports unchanged since
// holds the same bytes. ok is false, and the whole tree must be audited,
// when anything but an addition changed under the Journal root since,
// when the log's directory changed otherwise than an append changes it
// (tiles added, partial tiles removed, the checkpoint replaced), when git
// cannot say, or when this audit finds an error (a revision appended now
// may have been in the log commit's tree unlogged, which only the whole
// audit sees).
func (b *baseLog) auditSince(ctx context.Context, dir string, cp tlog.Signed, batch []tlog.Revision, checkpoint string) (diag.List, bool) {
	if b == nil {
		return nil, false
	}
	logCommit, err := b.repo.LastChange(ctx, b.commit, path.Join(b.rel, tlog.CheckpointFile))
	if err != nil || logCommit == "" {
		return nil, false
	}
	changes, err := b.repo.Diff(ctx, logCommit, false, b.root)
	if err != nil {
		return nil, false
	}
	added := map[string]bool{}
	for _, ch := range changes {
		if ch.Status != 'A' {
			return nil, false
		}
		added[ch.Path] = true
	}
	logChanges, err := b.repo.Diff(ctx, logCommit, false, b.rel)
	if err != nil || !tlog.IsAppend(logChanges, b.rel, b.old.N, cp.N) {
		return nil, false
	}
	var since []tlog.Revision
	for _, r := range batch {
		if added[path.Join(b.root, r.Path)] {
			since = append(since, r)
		}
	}
	leaves, err := tlog.LeavesFrom(tlog.DirFS(dir), cp.Tree, b.old.N)
	if err != nil {
		return nil, false
	}
	ds := tlog.Audit(b.old.N, leaves, since, checkpoint)
	if ds.HasErrors() {
		return nil, false
	}
	return ds, true
}

// inconsistent is the tlog/inconsistent diagnostic on the checkpoint
// (its shown path) that says msg, then why (err, when not nil): the first
// paragraph of err joins the message, and the evidence after it (both
// checkpoints, tlog.Consistent) goes to the help, line by line.
func inconsistent(checkpoint, msg string, err error) diag.Diagnostic {
	d := diag.Diagnostic{Code: rules.TLogInconsistent, Severity: diag.Error, Path: checkpoint, Range: diag.FileStart, Message: msg}
	if err != nil {
		why, evidence, _ := strings.Cut(err.Error(), "\n\n")
		d.Message += ": " + why
		if evidence != "" {
			d.Help = "the evidence, for whoever runs the log and its witnesses:\n" + strings.TrimRight(evidence, "\n")
		}
	}
	return d
}

func tlogWitness(c *ucli.Context) error {
	s, dir, cp, err := openConfiguredLog(c)
	if err != nil {
		return err
	}
	ws := s.cfg.TLog.Witnesses
	if len(ws) == 0 {
		// Witnesses are optional: the operator's job runs this step
		// whether or not the log has any.
		fmt.Fprintf(c.App.ErrWriter, "journal-lint: the tlog: block of %s lists no witnesses: nothing to cosign\n", configName(c, s))
		return nil
	}
	client := &http.Client{Timeout: c.Duration("timeout")}
	msg, failed := cp.Note, 0
	for _, w := range ws {
		cur := cp
		cur.Note = msg
		next, err := tlog.AddCheckpoint(c.Context, client, tlog.Witness{VKey: w.VKey, URL: w.URL}, cur, tlog.Hashes(tlog.DirFS(dir), cp.Tree))
		name, _, _ := strings.Cut(w.VKey, "+")
		if err == nil && s.cfg.TLog.MaxAge > 0 {
			err = tlog.FreshCosignature(next, w.VKey, s.cfg.TLog.MaxAge, time.Now())
		}
		if err != nil {
			fmt.Fprintf(c.App.ErrWriter, "journal-lint: %s\n", safetext.Lines(err.Error()))
			failed++
			continue
		}
		msg = next
		fmt.Fprintf(c.App.Writer, "%s: cosigned by %s (size %d)\n", shownLog(c, s, tlog.CheckpointFile), safetext.Text(name), cp.N)
	}
	msg = tlog.OnlySignatures(msg, s.cfg.TLog.VKey, s.cfg.TLog.WitnessKeys())
	if err := tlog.ReplaceCheckpoint(dir, cp, msg); err != nil {
		return &exitError{code: ExitFindings, err: err}
	}
	if failed > 0 {
		return &exitError{code: ExitFindings, err: fmt.Errorf("%d of %d witnesses did not cosign", failed, len(ws))}
	}
	return nil
}

func tlogProve(c *ucli.Context) error {
	if c.NArg() != 1 {
		return usageErrorf("tlog prove takes one Journal FILE, got %d arguments", c.NArg())
	}
	_, dir, cp, err := openConfiguredLog(c)
	if err != nil {
		return err
	}
	file := c.Args().First()
	e, err := revisionEntry(file)
	if err != nil {
		return err
	}
	p, err := tlog.Prove(tlog.DirFS(dir), cp, e)
	if err != nil {
		return &exitError{code: ExitFindings, err: fmt.Errorf("%s: %v", safetext.Text(file), err)}
	}
	if out := c.String("out"); out != "" {
		if err := os.WriteFile(out, p.Text(), 0o666); err != nil {
			return usageErrorf("--out: %v", err)
		}
		return nil
	}
	_, err = c.App.Writer.Write(p.Text())
	return err
}

// revisionEntry reads a Journal file and returns its leaf entry; a file
// that is not a valid revision is a usage error.
func revisionEntry(file string) (tlog.Entry, error) {
	b, err := readfile.Read(file, readfile.Options{Max: syntax.MaxSize})
	if err != nil {
		return tlog.Entry{}, usageErrorf("%s", safetext.Text(err.Error()))
	}
	doc, _ := syntax.Parse(file, b)
	if !doc.RevisionOK {
		return tlog.Entry{}, usageErrorf("%s is not a valid Journal revision (journal-lint check --file %s says why)", safetext.Text(file), safetext.Text(file))
	}
	return tlog.EntryOf(doc.Revision), nil
}

// trustedPolicy returns what the client trusts: --vkey alone, or the
// tlog: block of the --policy file with its witnesses, quorum and
// max-age.
func trustedPolicy(c *ucli.Context) (jtlog.Policy, error) {
	switch p, k := c.String("policy"), c.String("vkey"); {
	case p != "" && k != "":
		return jtlog.Policy{}, usageErrorf("give --policy or --vkey, not both")
	case k != "":
		return jtlog.Policy{VKey: k}, nil
	case p != "":
		b, err := readfile.Read(p, readfile.Options{Max: 1 << 16})
		if err != nil {
			return jtlog.Policy{}, usageErrorf("--policy: %s", safetext.Text(err.Error()))
		}
		cfg, err := config.Parse(p, b)
		if err != nil {
			return jtlog.Policy{}, configError(err)
		}
		t := cfg.TLog
		if t.VKey == "" {
			return jtlog.Policy{}, usageErrorf("--policy %s has no tlog: block", safetext.Text(p))
		}
		return jtlog.Policy{VKey: t.VKey, Quorum: t.Quorum, MaxAge: t.MaxAge, Witnesses: t.WitnessKeys()}, nil
	}
	return jtlog.Policy{}, usageErrorf("tlog verify-proof needs the trusted key: --policy FILE or --vkey VKEY")
}

func tlogVerifyProof(c *ucli.Context) error {
	if c.NArg() != 2 {
		return usageErrorf("tlog verify-proof takes a Journal FILE and its PROOF, got %d arguments", c.NArg())
	}
	file, proofFile := c.Args().Get(0), c.Args().Get(1)
	text, err := readfile.Read(file, readfile.Options{Max: syntax.MaxSize})
	if err != nil {
		return usageErrorf("%s", safetext.Text(err.Error()))
	}
	proof, err := readfile.Read(proofFile, readfile.Options{Max: 1 << 16})
	if err != nil {
		return usageErrorf("%s", safetext.Text(err.Error()))
	}
	pol, err := trustedPolicy(c)
	if err != nil {
		return err
	}
	pol.State = c.String("state")
	if d := c.String("log"); d != "" {
		pol.Log = os.DirFS(d)
	}
	cp, err := jtlog.VerifyRevision(text, proof, pol)
	if err != nil {
		return &exitError{code: ExitFindings, err: fmt.Errorf("%s: FAILED: %s", safetext.Text(file), safetext.Lines(err.Error()))}
	}
	fmt.Fprintf(c.App.Writer, "%s: OK: in %s size %d\n", safetext.Text(file), cp.Origin, cp.Size)
	return nil
}

// showLogPreview prints what the gate found of the transparency log
// (check.LogPreview) on stderr and, with summary, appends it to
// $GITHUB_STEP_SUMMARY when that is set: the checkpoint the operator's
// next append writes once the change is merged.
func showLogPreview(c *ucli.Context, p *check.LogPreview, summary bool) error {
	if p == nil {
		return nil
	}
	line := fmt.Sprintf("transparency log: the base checkpoint (size %d) verifies; after merge: size %d (+%d) root %s (unsigned: the operator's tlog append signs it)",
		p.Base.N, p.After.N, p.Added, p.After.Hash)
	switch {
	case p.Cosigned && p.Added == 0:
		line = fmt.Sprintf("transparency log: the base checkpoint (size %d) verifies; the change adds cosignatures to it, signed with the log's key: size %d root %s",
			p.Base.N, p.After.N, p.After.Hash)
	case p.Cosigned:
		line = fmt.Sprintf("transparency log: the base checkpoint (size %d) verifies and the change adds cosignatures to it; after merge: size %d (+%d) root %s (unsigned: the operator's tlog append signs it)",
			p.Base.N, p.After.N, p.Added, p.After.Hash)
	case p.Signed:
		line = fmt.Sprintf("transparency log: the base checkpoint (size %d) verifies; the change appends to it, signed with the log's key: size %d (+%d) root %s",
			p.Base.N, p.After.N, p.Added, p.After.Hash)
	}
	fmt.Fprintf(c.App.ErrWriter, "journal-lint: %s\n", line)
	path := os.Getenv("GITHUB_STEP_SUMMARY")
	if !summary || path == "" {
		return nil
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(f, "\n%s\n", strings.Replace(line, "root "+p.After.Hash.String(), "root `"+p.After.Hash.String()+"`", 1))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
