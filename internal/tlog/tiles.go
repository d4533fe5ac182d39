package tlog

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"golang.org/x/mod/sumdb/tlog"

	"github.com/r35157/journal-lint/internal/gitrepo"
	"github.com/r35157/journal-lint/internal/par"
)

// height is the tile height of C2SP tlog-tiles: 256 hashes per full tile.
const height = 8

// TilePath returns the C2SP tlog-tiles path of t ("tile/<L>/<N>[.p/<W>]"):
// x/mod's path without its explicit height.
func TilePath(t tlog.Tile) string {
	return "tile/" + strings.TrimPrefix(t.Path(), fmt.Sprintf("tile/%d/", height))
}

// TileFS reads tiles of the C2SP layout from a file system whose root is
// the log's directory: the disk, or a commit read from git.
type TileFS interface {
	// ReadFile returns the bytes of the file at the slash-separated path
	// relative to the log's directory; an error wrapping fs.ErrNotExist
	// when there is none.
	ReadFile(name string) ([]byte, error)
}

// DirFS is a TileFS over a directory on disk.
type DirFS string

// ReadFile reads name under the directory.
func (d DirFS) ReadFile(name string) ([]byte, error) {
	return os.ReadFile(filepath.Join(string(d), filepath.FromSlash(name)))
}

// tileReader is the tlog.TileReader of a TileFS: what it returns is
// authenticated by tlog.TileHashReader against a checkpoint before any
// hash of it is used.
type tileReader struct{ fsys TileFS }

// Height is the tile height of C2SP tlog-tiles.
func (tileReader) Height() int { return height }

// ReadTiles reads each tile (see read); tlog.TileHashReader authenticates them.
func (r tileReader) ReadTiles(tiles []tlog.Tile) ([][]byte, error) {
	out := make([][]byte, len(tiles))
	for i, t := range tiles {
		b, err := r.read(t)
		if err != nil {
			return nil, err
		}
		out[i] = b
	}
	return out, nil
}

// read returns the data of t. A partial tile of a smaller tree than the
// log's current one is a prefix of a wider tile of the same place (the
// full one, or the current partial one), which the log keeps instead.
func (r tileReader) read(t tlog.Tile) ([]byte, error) {
	for w := t.W; w <= 1<<height; w++ {
		wide := t
		wide.W = w
		b, err := r.fsys.ReadFile(TilePath(wide))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if len(b) != w*tlog.HashSize {
			return nil, fmt.Errorf("tile %s has %d bytes, not %d", TilePath(wide), len(b), w*tlog.HashSize)
		}
		return b[:t.W*tlog.HashSize], nil
	}
	return nil, fmt.Errorf("tile %s is missing: %w", TilePath(t), fs.ErrNotExist)
}

// SaveTiles keeps nothing: the tiles are already on disk.
func (tileReader) SaveTiles([]tlog.Tile, [][]byte) {}

// Hashes returns the stored hashes of the tree tr read from the tiles in
// fsys. Every hash it returns is proven to be in tr (tlog.TileHashReader):
// a tile that does not hash up to tr's root is an error.
func Hashes(fsys TileFS, tr tlog.Tree) tlog.HashReader {
	return tlog.TileHashReader(tr, tileReader{fsys})
}

// Leaves returns the leaf hashes of the tree tr, in log order, read from
// the level-0 tiles in fsys and authenticated against tr's root. It asks
// tlog.TileHashReader for one hash of each level-0 tile, which fetches and
// authenticates every level-0 tile, and takes the leaves from the tiles it
// confirmed (TileReader.SaveTiles): a million leaves cost the reading of
// 3,907 tiles, not a million lookups. The level-0 tiles are read and
// authenticated in groups of leavesPerGroup tiles on every core (package
// par); each group is authenticated on its own up to tr's root, so the few
// tiles above the groups are read once per group.
func Leaves(fsys TileFS, tr tlog.Tree) ([]tlog.Hash, error) { return LeavesFrom(fsys, tr, 0) }

// LeavesFrom is [Leaves] from the leaf with index from on (0 ≤ from ≤
// tr.N): the leaves past an earlier checkpoint, which cost the reading of
// their tiles only.
func LeavesFrom(fsys TileFS, tr tlog.Tree, from int64) ([]tlog.Hash, error) {
	if from < 0 || from > tr.N {
		return nil, fmt.Errorf("leaf %d is not in a tree of size %d", from, tr.N)
	}
	if from == tr.N {
		return nil, nil
	}
	start := from >> height
	out := make([]tlog.Hash, tr.N-start<<height) // from the first leaf of tile start on
	tiles := (tr.N + 1<<height - 1) >> height
	groups := int((tiles - start + leavesPerGroup - 1) / leavesPerGroup)
	errs := make([]error, groups)
	par.For(groups, 0, func(g int) {
		first := start + int64(g)*leavesPerGroup
		var idx []int64
		for n := first; n < min(first+leavesPerGroup, tiles); n++ {
			idx = append(idx, tlog.StoredHashIndex(0, n<<height))
		}
		saved := &savingReader{tileReader: tileReader{fsys}, out: out, base: start << height, first: first, last: first + int64(len(idx))}
		if _, err := tlog.TileHashReader(tr, saved).ReadHashes(idx); err != nil {
			errs[g] = err
			return
		}
		if saved.got != int64(len(idx)) {
			errs[g] = fmt.Errorf("level-0 tiles %d to %d were not all authenticated", first, saved.last-1)
		}
	})
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("tiles of size %d: %w", tr.N, err)
	}
	return out[from-start<<height:], nil
}

// leavesPerGroup is how many level-0 tiles [Leaves] authenticates in one
// piece of work: a level-1 tile's worth, so that the tiles above are read
// once per 65,536 leaves.
const leavesPerGroup = 1 << height

// savingReader is a tileReader that copies the leaves of the level-0 tiles
// first to last-1, once tlog.TileHashReader confirmed them, into out, which
// holds the leaves from index base on.
type savingReader struct {
	tileReader
	out         []tlog.Hash
	base        int64
	first, last int64
	got         int64 // tiles copied
}

// SaveTiles copies the authenticated level-0 tiles of the group.
func (r *savingReader) SaveTiles(tiles []tlog.Tile, data [][]byte) {
	for i, t := range tiles {
		if t.L != 0 || t.N < r.first || t.N >= r.last {
			continue
		}
		at := t.N<<height - r.base
		for j := 0; j+tlog.HashSize <= len(data[i]) && at < int64(len(r.out)); j += tlog.HashSize {
			r.out[at] = tlog.Hash(data[i][j : j+tlog.HashSize])
			at++
		}
		r.got++
	}
}

// Strays returns the files under the log's directory fsys, slash paths in
// lexical order, that a log of size n does not hold: all but the
// checkpoint and the tiles of size n (C2SP tlog-tiles: the full tiles and
// the partial tiles of that size). An append's lock (LockFile) is one
// too: left behind, it stops the next append, and the operator's job
// would commit it. Its errors are those of walking fsys.
func Strays(fsys fs.FS, n int64) ([]string, error) {
	held := map[string]bool{CheckpointFile: true}
	for _, t := range tlog.NewTiles(height, 0, n) {
		held[TilePath(t)] = true
	}
	var out []string
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if !held[p] {
			out = append(out, p)
		}
		return nil
	})
	return out, err
}

// partialTiles returns the partial tiles of a tree of size n, the only
// tiles of it that a larger tree replaces.
func partialTiles(n int64) []tlog.Tile {
	var out []tlog.Tile
	for _, t := range tlog.NewTiles(height, 0, n) {
		if t.W < 1<<height {
			out = append(out, t)
		}
	}
	return out
}

// maxLogFile bounds a file of the log read from git: a full tile is 8,192
// bytes, a checkpoint a few hundred.
const maxLogFile = 1 << 16

// GitFS is a TileFS over the log's directory as a git commit holds it,
// or the index when Commit is "": the blobs of regular files, never the
// work tree's copies.
type GitFS struct {
	Ctx    context.Context
	Repo   *gitrepo.Repo
	Commit string
	// Dir is the log's directory relative to the top of the work tree,
	// with forward slashes.
	Dir string
}

// ReadFile reads name under the directory at the commit.
func (g GitFS) ReadFile(name string) ([]byte, error) {
	p := path.Join(g.Dir, name)
	var entries []gitrepo.Entry
	if g.Commit == "" {
		l, err := g.Repo.Index(g.Ctx, p)
		if err != nil {
			return nil, err
		}
		for _, e := range l.All() {
			if e.Stage == 0 {
				entries = append(entries, e)
			}
		}
	} else {
		var err error
		if entries, err = g.Repo.Tree(g.Ctx, g.Commit, p); err != nil {
			return nil, err
		}
	}
	for _, e := range entries {
		if e.Path != p || !e.IsRegular() {
			continue
		}
		contents, tooLarge, err := g.Repo.ReadBlobs(g.Ctx, []string{e.Object}, maxLogFile)
		if err != nil {
			return nil, err
		}
		if len(tooLarge) > 0 {
			return nil, fmt.Errorf("%s is larger than %d bytes", p, maxLogFile)
		}
		return contents[e.Object], nil
	}
	return nil, fmt.Errorf("%s at %.12s: %w", p, g.Commit, fs.ErrNotExist)
}
