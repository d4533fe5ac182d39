package lsp

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"go.lsp.dev/protocol"

	"github.com/r35157/journal-lint/internal/chain"
	"github.com/r35157/journal-lint/internal/check"
	"github.com/r35157/journal-lint/internal/config"
	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/load"
	"github.com/r35157/journal-lint/internal/memo"
	"github.com/r35157/journal-lint/internal/plugin"
	"github.com/r35157/journal-lint/internal/readfile"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
)

// scope is where a buffer is checked: its Journal root, its path below it
// and the configuration file that applies.
type scope struct {
	// root is the absolute Journal root: the configuration's root when the
	// file lies below it, else the directory above the file's artifact
	// directory (<root>/<coordinate>/<file>, "Filesystem layout" in
	// docs/journal-format.md).
	root string
	// rel is the file's root-relative path with forward slashes.
	rel string
	// configFile is the .journal-lint.yaml found from the file's directory
	// upwards, as `journal-lint check` finds it from the working directory;
	// "" when there is none.
	configFile string
	// alone, when not "", says why the file is in no Journal tree: it is
	// checked on its own, as `journal-lint check --file` checks it; root
	// is then the file itself and rel its path with forward slashes.
	alone string
}

// locate finds the scope of the file at the absolute path. A file lies
// in a tree when it is <root>/<coordinate>/<file> below the root that the
// configuration names or, without one, when its directory is named like
// an artifact coordinate ("Filesystem layout" in docs/journal-format.md);
// any other Journal (a scratch draft, a stray file in the root, a
// subfolder, a test fixture) is checked alone.
func (s *server) locate(path string) scope {
	dir := filepath.Dir(path)
	sc := scope{root: filepath.Dir(dir)}
	if f, err := config.Find(dir); err == nil {
		sc.configFile = f
	}
	configRoot := ""
	if sc.configFile != "" {
		// Only the root is read here; the check loads (and validates) the
		// configuration with its packs, in the one goroutine that checks.
		if cfg, err := config.Load(sc.configFile); err == nil && cfg.Root != "" {
			if r := cfg.RootDir(); within(r, path) {
				sc.root, configRoot = r, r
			}
		}
	}
	rel, err := filepath.Rel(sc.root, path)
	if err != nil {
		rel = filepath.Base(path)
	}
	sc.rel = filepath.ToSlash(rel)
	if configRoot != "" {
		if strings.Count(sc.rel, "/") != 1 {
			sc.alone = fmt.Sprintf("it is not at <coordinate>/<file> below the Journal root %s (root: in %s)", configRoot, sc.configFile)
		}
	} else if _, err := vt.ParseCoordinate(filepath.Base(dir)); err != nil {
		sc.alone = fmt.Sprintf("its directory is not an artifact directory (%v)", err)
	}
	if sc.alone != "" {
		sc.root, sc.rel = path, filepath.ToSlash(path)
	}
	return sc
}

// within reports whether path lies below dir.
func within(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// configEntry is one loaded configuration file with the digest of the
// bytes it was read from, and its rule packs, started once and kept
// running for the session (plugin.Start). Like the tree's files the
// configuration is judged by its content: a rewrite that keeps the size
// and the modification time is a change too.
type configEntry struct {
	sum   [sha256.Size]byte
	cfg   *config.Config
	packs *plugin.Packs
	err   error
}

// config returns the validated configuration of file ("" for none:
// config.Default) and its running rule packs, reloading it when its
// content changed. A configuration that does not load or validate yields
// config.Default and the error, which the caller shows to the user: check
// would refuse to run, and an editor should still show the validity
// findings. A file that is gone (deleted since the buffer was located;
// the next file event locates the buffers again) is no error: the buffer
// has no configuration.
func (s *server) config(file string) (*config.Config, *plugin.Packs, error) {
	if file != "" {
		data, err := readConfig(file)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			s.logf("configuration %s is gone: checking with the default configuration", file)
		case err != nil:
			return config.Default(), nil, fmt.Errorf("configuration %s: %w", file, err)
		default:
			return s.configOf(file, sha256.Sum256(data))
		}
	}
	// One value for the session, so that a check can take over the
	// last one's findings (check.Options.Prior needs the same
	// configuration).
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.defaultConfig == nil {
		s.defaultConfig = config.Default()
	}
	return s.defaultConfig, nil, nil
}

// readConfig reads a configuration file to tell whether it changed, as
// config.Load reads it (package readfile: a regular file of at most
// readfile.MaxConfig bytes).
func readConfig(file string) ([]byte, error) {
	return readfile.Read(file, readfile.Options{Max: readfile.MaxConfig})
}

// readDisk reads a Journal file on disk as check reads the tree's (package
// readfile): a regular file only, never through a symbolic link, of at
// most readfile.MaxJournal bytes, read again when a writer is caught. An
// open buffer whose file is a link to /dev/zero, or a FIFO, must neither
// exhaust nor stall the server (issue 26).
func readDisk(path string) ([]byte, error) {
	return readfile.Read(path, readfile.Options{NoFollow: true})
}

// configOf returns the configuration of file whose content has the digest
// sum, from the cache or loaded anew.
func (s *server) configOf(file string, sum [sha256.Size]byte) (*config.Config, *plugin.Packs, error) {
	s.mu.Lock()
	e := s.configs[file]
	s.mu.Unlock()
	if e != nil && e.sum == sum {
		return e.cfg, e.packs, e.err
	}
	ne := &configEntry{sum: sum}
	ne.cfg, ne.packs, ne.err = s.loadConfig(file)
	if ne.err != nil {
		ne.cfg = config.Default()
	}
	s.mu.Lock()
	if old := s.configs[file]; old != nil {
		old.packs.Close()
	}
	s.configs[file] = ne
	s.mu.Unlock()
	return ne.cfg, ne.packs, ne.err
}

// loadConfig loads and validates file like `journal-lint check` does,
// starting the rule packs it pins to learn their codes.
func (s *server) loadConfig(file string) (*config.Config, *plugin.Packs, error) {
	cfg, err := config.Load(file)
	if err != nil {
		return nil, nil, err
	}
	keep := ""
	if s.opts.Cache != nil && s.opts.Cache.Mode() == memo.On {
		keep = memo.PacksDir(s.opts.Cache.Path())
	}
	packs, err := plugin.Start(s.ctx, cfg, keep)
	if err != nil {
		return nil, nil, err
	}
	if err := config.Validate(cfg, packs.Registry(check.Registry())); err != nil {
		packs.Close()
		return nil, nil, err
	}
	return cfg, packs, nil
}

// closeConfigs stops the rule packs of every loaded configuration.
func (s *server) closeConfigs() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, e := range s.configs {
		e.packs.Close()
	}
	s.configs = map[string]*configEntry{}
}

// checked is the last check of one root: the result and the buffers it saw.
type checked struct {
	res *check.Result
	cfg *config.Config
	// docs are the open buffers as they were checked, by URI.
	docs map[protocol.DocumentURI]*document
	// byPath are the diagnostics of each root-relative path.
	byPath map[string]diag.List
}

// hooks hold the server at fixed points for the package's tests
// (export_test.go); nil otherwise.
var hooks struct {
	// checked runs after a check of root, before its diagnostics are
	// published; ctx ends when the check is cancelled.
	checked atomic.Pointer[func(ctx context.Context, root string)]
	// parse runs before a request parses a buffer.
	parse atomic.Pointer[func()]
	// shutdown runs when shutdown arrives.
	shutdown atomic.Pointer[func()]
	// awaiting runs when a request starts to wait for a check
	// (awaitFullCheck).
	awaiting atomic.Pointer[func()]
}

// rescanEvery is how long the server trusts its picture of a tree on disk
// when the client does not watch files for it, and rescanWatched when it
// does (a watching client may not see everything: eglot watches only the
// directories that held files when it registered). Once the author pauses
// for rescanPause after that (or at once when idle), a check in the
// background lists the tree again and reads the files whose size or
// modification time changed; a change cancels it. So a keystroke never
// waits for a listing of the tree (160 ms for 10,000 files), and files
// created, changed or deleted on disk are seen within seconds without an
// edit. A large tree is listed less often: the wait is at least
// rescanShare times what the last listing took, so that listing takes at
// most 1/rescanShare of the time.
const (
	rescanEvery   = 2 * time.Second
	rescanWatched = 10 * time.Second
	rescanPause   = time.Second
	rescanShare   = 20
)

// markDirtyLocked asks for a check of root, cancelling a check in the
// background; s.mu is held.
func (s *server) markDirtyLocked(root string) {
	s.dirty[root] = true
	if s.background && s.cancelRound != nil {
		s.cancelRound()
	}
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// checkLoop runs check rounds until the session ends: after a wake-up it
// waits for the debounce delay, then checks every dirty root with the
// buffers as they are then. Changes that arrive during a round make another
// round, so a burst of edits costs a few checks, not one per edit. A pause
// after edits lists the trees again in the background (rescanEvery).
// After shutdown nothing is checked, and shutdown cancels the round under
// way.
func (s *server) checkLoop() {
	for {
		var due <-chan time.Time
		if wait, ok := s.rescanDue(); ok {
			due = time.After(wait)
		}
		background := false
		select {
		case <-s.ctx.Done():
			return
		case <-s.wake:
		case <-due:
			background = true
		}
		if s.opts.Debounce > 0 && !background {
			select {
			case <-s.ctx.Done():
				return
			case <-time.After(s.opts.Debounce):
			}
		}
		s.mu.Lock()
		if s.state != running {
			s.mu.Unlock()
			continue
		}
		roots := s.dirty
		if background {
			roots = s.staleRootsLocked(time.Now())
		} else {
			s.dirty = map[string]bool{}
		}
		ctx, cancel := context.WithCancel(s.ctx)
		s.cancelRound, s.background = cancel, background
		s.mu.Unlock()
		for root := range roots {
			if ctx.Err() != nil {
				break
			}
			s.checkRoot(ctx, root, background)
		}
		s.mu.Lock()
		s.cancelRound, s.background = nil, false
		s.mu.Unlock()
		cancel()
	}
}

// rescanDue returns how long to wait, without a change, before the next
// background listing of a tree (at least rescanPause), and false when no
// tree is checked.
func (s *server) rescanDue() (time.Duration, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var next time.Time
	for root := range s.staleRootsLocked(time.Time{}) {
		if t := s.nextScan[root]; next.IsZero() || t.Before(next) {
			next = t
		}
	}
	if next.IsZero() {
		return 0, false
	}
	return max(rescanPause, time.Until(next)+time.Millisecond), true
}

// staleRootsLocked returns the checked trees (not the buffers checked
// alone) whose background listing is due at now, all of them for a zero
// now; s.mu is held.
func (s *server) staleRootsLocked(now time.Time) map[string]bool {
	out := map[string]bool{}
	for root, c := range s.checked {
		if c.res.Load != nil && (now.IsZero() || !now.Before(s.nextScan[root])) {
			out[root] = true
		}
	}
	return out
}

// scannedLocked records that root's tree was listed, which took cost;
// s.mu is held.
func (s *server) scannedLocked(root string, cost time.Duration) {
	every := rescanEvery
	if s.watching {
		every = rescanWatched
	}
	s.nextScan[root] = time.Now().Add(max(every, rescanShare*cost))
}

// checkRoot checks the tree under root with its open buffers and publishes
// the diagnostics of each buffer. A check in the background lists the
// tree again and publishes only what changed.
func (s *server) checkRoot(ctx context.Context, root string, background bool) {
	s.mu.Lock()
	docs := map[protocol.DocumentURI]*document{}
	overlay := map[string][]byte{}
	examples := false
	configFile := ""
	for u, d := range s.docs {
		if d.root == root {
			docs[u] = d
		}
	}
	s.mu.Unlock()
	for u, d := range docs {
		d = s.withDiskBytes(d)
		docs[u] = d
		if !d.disk {
			overlay[d.rel] = d.src
		}
		examples = examples || strings.HasSuffix(d.rel, load.ExampleSuffix)
		configFile = d.configFile
	}
	if len(docs) == 0 {
		s.mu.Lock()
		delete(s.checked, root)
		s.mu.Unlock()
		return
	}
	cfg, packs, err := s.config(configFile)
	if err != nil {
		s.tell(protocol.MessageTypeError, fmt.Sprintf("journal-lint: %v; checking with the default configuration", err))
	}
	for _, d := range docs {
		if d.alone != "" {
			s.checkAlone(ctx, d, cfg)
			return
		}
	}
	// The last check's unchanged artifacts are taken over (check.Options.Prior):
	// a change costs the work of its artifact. The tree on disk is listed
	// again (Rescan) after a save or a file event from the client, and in
	// the background after a pause (checkLoop), so that changes the client
	// did not report are seen too.
	s.mu.Lock()
	var prior *check.Result
	if last := s.checked[root]; last != nil {
		prior = last.res
	}
	asked := s.rescan[root]
	rescan := background || asked
	delete(s.rescan, root)
	s.mu.Unlock()
	var first *checked
	if prior == nil {
		first = s.checkFromCache(ctx, root, examples || cfg.Examples, cfg, docs, overlay, packs)
	}
	if first != nil {
		defer s.fullChecked(root)
	}
	start := time.Now()
	res, err := check.Run(ctx, check.Options{Root: root, Examples: examples || cfg.Examples, Config: cfg, Now: s.now(), Overlay: overlay, Packs: packs, KeepState: true, Prior: prior, Rescan: rescan})
	if err != nil {
		if ctx.Err() == nil {
			s.tell(protocol.MessageTypeError, fmt.Sprintf("journal-lint: checking %s: %v", root, err))
			s.mu.Lock()
			s.scannedLocked(root, time.Since(start)) // not again at once in the background
			s.mu.Unlock()
		} else if asked {
			s.mu.Lock()
			s.rescan[root] = true // for the next check
			s.mu.Unlock()
		}
		return
	}
	if h := hooks.checked.Load(); h != nil {
		(*h)(ctx, root)
	}
	c := &checked{res: res, cfg: cfg, docs: docs, byPath: map[string]diag.List{}}
	for _, d := range res.Diagnostics {
		c.byPath[d.Path] = append(c.byPath[d.Path], d)
	}
	// The buffers' parses serve the requests (text.keep).
	for _, f := range res.Load.Files {
		for _, d := range docs {
			if f.Path == d.rel && f.Doc != nil && sameBytes(f.Doc.Src, d.src) {
				d.keep(f.Doc)
			}
		}
	}
	s.mu.Lock()
	last := s.checked[root]
	s.checked[root] = c
	if prior == nil || rescan {
		s.scannedLocked(root, time.Since(start))
	}
	s.mu.Unlock()
	if first != nil {
		last, background = first, true // publish only what the full check changed
	}
	for _, d := range docs {
		if background && last != nil && last.docs[d.uri] != nil && last.docs[d.uri].serial == d.serial &&
			reflect.DeepEqual(last.byPath[d.rel], c.byPath[d.rel]) {
			continue // nothing new to show after a listing in the background
		}
		s.publish(c, d)
	}
}

// checkFromCache publishes the first diagnostics of the tree under root
// from a check that takes unchanged artifacts from the persistent cache
// (Options.Cache), before the check that keeps the state the requests
// need, which reads every file: in a large tree the buffers show their
// findings in about the time of a warm `journal-lint check`. It returns
// what it published, or nil when it checked nothing: without a cache,
// with a buffer that differs from its file or with rule packs (the cache
// serves no check with an overlay or packs), or when the check failed
// (the full check then reports why).
func (s *server) checkFromCache(ctx context.Context, root string, examples bool, cfg *config.Config, docs map[protocol.DocumentURI]*document, overlay map[string][]byte, packs *plugin.Packs) *checked {
	if s.opts.Cache == nil || packs != nil {
		return nil
	}
	for _, d := range docs {
		if src, ok := overlay[d.rel]; ok {
			if disk, err := readDisk(d.path); err != nil || !bytes.Equal(disk, src) {
				return nil
			}
		}
	}
	res, err := check.Run(ctx, check.Options{Root: root, Examples: examples, Config: cfg, Now: s.now(), Cache: s.opts.Cache})
	if err != nil {
		return nil
	}
	c := &checked{res: res, cfg: cfg, docs: docs, byPath: map[string]diag.List{}}
	for _, d := range res.Diagnostics {
		c.byPath[d.Path] = append(c.byPath[d.Path], d)
	}
	s.mu.Lock()
	s.pending[root] = make(chan struct{})
	s.mu.Unlock()
	for _, d := range docs {
		s.publish(c, d)
	}
	return c
}

// fullChecked says that the check of root that followed checkFromCache
// ended, checked or not: the requests that wait for it go on.
func (s *server) fullChecked(root string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ch := s.pending[root]; ch != nil {
		close(ch)
		delete(s.pending, root)
	}
}

// awaitFullCheck waits, until ctx ends, for the check of d's root that
// keeps the state, when the buffer's diagnostics came from the cache and
// that check still runs: the quick fixes (codeAction) and what hover,
// definition and completion know of the tree (viewOf) come from it.
func (s *server) awaitFullCheck(ctx context.Context, d *document) {
	s.mu.Lock()
	ch := s.pending[d.root]
	s.mu.Unlock()
	if ch == nil {
		return
	}
	if h := hooks.awaiting.Load(); h != nil {
		(*h)()
	}
	select {
	case <-ch:
	case <-ctx.Done():
	}
}

// checkAlone checks a buffer that lies in no Journal tree on its own, as
// `journal-lint check --file` does, and publishes what that finds (see
// [server.publish] for the note that says why).
func (s *server) checkAlone(ctx context.Context, d *document, cfg *config.Config) {
	overlay := map[string][]byte{d.path: d.src}
	if d.disk {
		overlay = nil
	}
	res, err := check.RunFiles(ctx, check.FilesOptions{Paths: []string{d.path}, Config: cfg, Now: s.now(), Overlay: overlay})
	if err != nil {
		return // only a cancelled ctx
	}
	c := &checked{res: res, cfg: cfg, docs: map[protocol.DocumentURI]*document{d.uri: d}, byPath: map[string]diag.List{}}
	for _, dg := range res.Diagnostics {
		c.byPath[dg.Path] = append(c.byPath[dg.Path], dg)
	}
	s.mu.Lock()
	s.checked[d.root] = c
	s.mu.Unlock()
	s.publish(c, d)
}

// state returns the accepted state of the tree as c loaded it, empty for a
// buffer checked alone.
func (c *checked) state() *chain.State {
	if c.res.Load == nil {
		return chain.Empty()
	}
	return c.res.Load.State
}

// tell shows message to the user once per session.
func (s *server) tell(typ protocol.MessageType, message string) {
	s.mu.Lock()
	seen := s.told[message]
	s.told[message] = true
	s.mu.Unlock()
	s.logf("%s", message)
	if !seen {
		if err := s.client.ShowMessage(s.ctx, &protocol.ShowMessageParams{Type: typ, Message: message}); err != nil {
			s.logf("showing a message: %v", err)
		}
	}
}

// lastCheck returns the last check of d's root and whether it saw d at its
// current version.
func (s *server) lastCheck(d *document) (*checked, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.checked[d.root]
	if c == nil {
		return nil, false
	}
	seen := c.docs[d.uri]
	return c, seen != nil && seen.version == d.version
}

// withDiskBytes returns d with the bytes of its file on disk when the
// buffer is that file as an editor decoded it, so that the check sees
// the real bytes, as check does:
//   - JSON (and so LSP) cannot carry invalid UTF-8, so an editor shows each
//     invalid byte as U+FFFD; the check then reports syntax/encoding.
//     Positions stay the same: an invalid byte and U+FFFD are one unit each.
//   - Editors that normalise line endings (eglot, ALE) send LF text for a
//     CRLF file; the check then finds style/crlf, and the file keeps its
//     digest, which its successor names. Positions within a line stay the
//     same: the CR ends it.
//
// The second is logged once per file.
func (s *server) withDiskBytes(d *document) *document {
	crlf := false
	switch {
	case bytes.Contains(d.src, []byte("\uFFFD")):
	case bytes.IndexByte(d.src, '\r') < 0:
		// A CRLF file of the buffer's text has one byte more per line.
		fi, err := os.Stat(d.path)
		if err != nil || fi.Size() <= int64(len(d.src)) || fi.Size() > int64(len(d.src)+bytes.Count(d.src, []byte("\n"))) {
			return d
		}
		crlf = true
	default:
		return d
	}
	disk, err := readDisk(d.path)
	if err != nil {
		return d
	}
	if crlf {
		if !bytes.Equal(bytes.ReplaceAll(disk, []byte("\r\n"), []byte("\n")), d.src) {
			return d
		}
		s.logOnce(d.path+"\x00crlf", "%s: the buffer has LF line endings where the file on disk has CRLF: the file's bytes are checked", d.path)
	} else if utf8.Valid(disk) || !bytes.Equal(replaceInvalid(disk), d.src) {
		return d
	}
	nd := *d
	nd.text = newText(disk)
	return &nd
}

// logOnce logs the message once per session and key.
func (s *server) logOnce(key, format string, args ...any) {
	s.mu.Lock()
	seen := s.told[key]
	s.told[key] = true
	s.mu.Unlock()
	if !seen {
		s.logf(format, args...)
	}
}

// replaceInvalid returns b with each byte that is not part of valid UTF-8
// replaced by U+FFFD, as a JSON decoder does.
func replaceInvalid(b []byte) []byte {
	out := make([]byte, 0, len(b)+len(b)/2)
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		if r == utf8.RuneError && size == 1 {
			out = utf8.AppendRune(out, utf8.RuneError)
		} else {
			out = append(out, b[:size]...)
		}
		b = b[size:]
	}
	return out
}
