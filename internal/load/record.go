package load

import (
	"context"
	"crypto/sha256"
	"slices"
	"strings"

	"github.com/r35157/journal-lint/internal/chain"
	"github.com/r35157/journal-lint/internal/codec"
	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/par"
	"github.com/r35157/journal-lint/internal/source"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
)

// A load can take an artifact directory from a record of an earlier run
// (Options.Memo) instead of reading, parsing and ingesting its files: what
// the load finds of one artifact directory depends only on the names and
// the bytes of its Journal files (placement, parsing and the artifact's own
// chain; a PREDECESSOR that names another artifact waits as a
// chain.Pending and is resolved against the tree this load reads). The
// artifact's [Key] names exactly that: its directory, and each file's name
// and content address (source.BlobAddress), which a source may know
// without reading the file (source.Addresser) or vouch for
// (source.Voucher). What the record holds is [Artifact.AppendRecord]'s;
// whoever keeps records (package internal/memo) answers for giving back
// the one made under the same key.

// Key identifies the inputs of one artifact directory's part of a load:
// its name and, in chronological order, each Journal file's name and
// content address. Equal keys mean equal inputs, so equal results.
type Key [sha256.Size]byte

// keyDomain names the scheme of [Key]; a change of what the load finds of
// an artifact changes it (with the record format).
const keyDomain = "journal-lint/load/artifact/v1"

// artifactKey returns the key of the artifact directory dir whose files
// are named names (in order) with the content addresses addrs.
func artifactKey(dir string, names, addrs []string) Key {
	h := sha256.New()
	size := len(keyDomain) + len(dir) + 20 // with the lengths' varints
	for i, n := range names {
		size += len(n) + len(addrs[i]) + 4
	}
	w := codec.NewWriter(make([]byte, 0, size))
	w.String(keyDomain)
	w.String(dir)
	w.Uint(uint64(len(names)))
	for i, n := range names {
		w.String(n)
		w.String(addrs[i])
	}
	h.Write(w.Bytes())
	var k Key
	h.Sum(k[:0])
	return k
}

// Memo gives back what an earlier run found of an artifact directory
// (see [Key]). Its methods are called concurrently from the load's workers.
type Memo interface {
	// Lookup returns the record of the artifact directory dir with key,
	// whose Journal files are paths (root-relative, chronological), and
	// whether there is one: a record of its own (ReadRecord), which the
	// load takes and changes.
	Lookup(dir string, paths []string, key Key) (*Record, bool)
}

// Record is what a load found of one artifact directory, as an earlier run
// kept it ([Artifact.AppendRecord], [ReadRecord]).
type Record struct {
	// files are the directory's files, with their own diagnostics and
	// their pending rejections.
	files []File
	// accepted counts the chain's revisions.
	accepted int
	// Extra is what the Memo keeps beside the load's part (a check's
	// findings), handed to Options.Visit as Artifact.Record.
	Extra any
}

// Len returns the number of files of the record.
func (r *Record) Len() int { return len(r.files) }

// Summary returns the summary of the record's file i (0 ≤ i < Len), in
// chronological order.
func (r *Record) Summary(i int) Summary { return r.files[i].Summary }

// RecordFormat is the version of the encoding of a [Record]; whoever keeps
// records keys them by it too.
const RecordFormat = 1

// AppendRecord writes what the load found of a to w: each file's name,
// summary, own diagnostics (placement, parse and chain; not those of a
// rejection resolved after the load) and chain outcome, the pending
// rejection if any, and the number of accepted revisions. It must be
// called during Options.Visit, on an artifact that was read (a.Record
// nil).
func (a *Artifact) AppendRecord(w *codec.Writer) {
	w.Uint(RecordFormat)
	w.Uint(uint64(len(a.Files)))
	for _, f := range a.Files {
		_, name, _ := strings.Cut(f.Path, "/")
		w.String(name)
		appendSummary(w, f.Summary)
		diag.AppendList(w, f.Diagnostics)
		w.Uint(uint64(f.Outcome))
		w.Bool(f.pending != nil)
		if f.pending != nil {
			chain.AppendPending(w, f.pending)
		}
	}
	w.Uint(uint64(len(a.Chain)))
}

// ReadRecord reads the record of the artifact directory dir written by
// [Artifact.AppendRecord]; a record that does not decode is
// codec.ErrCorrupt.
func ReadRecord(r *codec.Reader, dir string) (*Record, error) {
	if r.Uint() != RecordFormat {
		return nil, codec.ErrCorrupt
	}
	n := r.Len()
	rec := &Record{files: make([]File, n)}
	co, _ := vt.ParseCoordinate(dir) // what most files' ARTIFACT is
	for i := range rec.files {
		f := &rec.files[i]
		f.Path = dir + "/" + string(r.Slice()) // one string, not two
		f.Summary = readSummary(r, co)
		f.Diagnostics = diag.ReadList(r)
		f.Outcome = chain.Outcome(r.SmallInt())
		if r.Bool() {
			if f.pending = chain.ReadPending(r); f.pending == nil {
				return nil, codec.ErrCorrupt
			}
		}
		if r.Err() != nil {
			return nil, r.Err()
		}
	}
	rec.accepted = r.SmallInt()
	return rec, r.Err()
}

func appendSummary(w *codec.Writer, s Summary) {
	w.Digest(s.Digest)
	w.Bool(s.Read)
	w.Bool(s.CoordinateOK)
	w.Bool(s.JournalVersionOK)
	w.Bool(s.RevisionOK)
	w.String(s.Coordinate.String())
	w.Timestamp(s.JournalVersion)
	w.Uint(uint64(s.Size))
}

// readSummary reads a summary of a file of the artifact directory named
// after co.
func readSummary(r *codec.Reader, co vt.Coordinate) Summary {
	s := Summary{Digest: r.Digest(), Read: r.Bool(), CoordinateOK: r.Bool(), JournalVersionOK: r.Bool(), RevisionOK: r.Bool()}
	switch c := r.Slice(); {
	case string(c) == co.String() && len(c) > 0:
		s.Coordinate = co
	case len(c) > 0:
		s.Coordinate, _ = vt.ParseCoordinate(string(c))
	}
	s.JournalVersion = r.Timestamp()
	s.Size = r.SmallInt()
	return s
}

// memoized reports whether a load with opts may take artifacts from
// opts.Memo: a load from scratch (no Base or Prior) that drops its
// documents, since a record holds no document.
func memoized(opts Options) bool {
	return opts.Memo != nil && opts.Base == nil && opts.Prior == nil && opts.DropDocs
}

// addresses returns the content address of every candidate that the
// source knows (source.Addresser) or vouches for (source.Voucher) without
// reading it ("" for the others), or nil when it has none.
func addresses(src source.Source, cands []candidate) []string {
	var address func(string) (string, bool)
	switch s := src.(type) {
	case source.Addresser:
		address = s.Address
	case source.Voucher:
		address = s.Vouch
	default:
		return nil
	}
	out := make([]string, len(cands))
	for i, c := range cands {
		out[i], _ = address(c.rel)
	}
	return out
}

// keepVouched clears the key of the artifact a, read after its record was
// missed, when its source only vouches for the addresses it was keyed by
// (source.Voucher) and a file's bytes do not have the address vouched for,
// or could not be read: what it found is then kept under no key. fs are
// a's files, read and parsed.
func keepVouched(a *artifactRun, cands []candidate, fs []*File, opts Options) {
	v, ok := opts.Source.(source.Voucher)
	if !ok || a.deferred || a.key == (Key{}) {
		return
	}
	for i, f := range fs {
		vouched, _ := v.Vouch(cands[a.lo+i].rel)
		if f.Doc == nil || opts.Source.AddressOf(f.Doc.Src) != vouched {
			if mv, ok := opts.Memo.(Misvoucher); ok && f.Doc != nil {
				mv.Misvouched(f.Path)
			}
			a.key = Key{}
			return
		}
	}
}

// Misvoucher is a [Memo] that wants to know of a file whose bytes, read
// after its artifact's record was missed, do not have the address its
// source vouched for (source.Voucher): what vouched for it was wrong, or
// the file changed while the load ran. Misvouched gets the file's
// root-relative path; the load goes on, keeping the artifact under no key.
type Misvoucher interface {
	Misvouched(path string)
}

// lookup asks the memo for the artifact a of this load, whose candidates'
// addresses are addrs (one per candidate of a, none empty), and
// reports whether it had a record, which then fills files and is visited
// in place of reading (takeRecord). When the files were read, digests
// are the SHA-256 of their bytes, which the record's must equal: an
// address computed here (source.BlobAddress) is a SHA-1 that crafted
// bytes could share, the revision digest is not.
func lookup(ai, total int, a *artifactRun, cands []candidate, addrs []string, digests []vt.Digest, files []*File, opts Options) bool {
	cs := cands[a.lo:a.hi]
	names, paths := make([]string, len(cs)), make([]string, len(cs))
	for i, c := range cs {
		paths[i] = c.rel
		_, names[i], _ = strings.Cut(c.rel, "/")
	}
	dir := cs[0].dir()
	key := artifactKey(dir, names, addrs)
	a.key = key
	rec, ok := opts.Memo.Lookup(dir, paths, key)
	if !ok || len(rec.files) != len(cs) {
		return false
	}
	for i := range rec.files {
		if rec.files[i].Path != cs[i].rel || (digests != nil && rec.files[i].Summary.Digest != digests[i]) {
			return false
		}
	}
	if v, ok := opts.Source.(source.Voucher); ok && digests == nil {
		// Vouched for, not read: each file must still be as long as the
		// bytes the record was made of.
		for i := range rec.files {
			if s := rec.files[i].Summary; !s.Read || !v.Confirm(cs[i].rel, s.Size) {
				return false
			}
		}
	}
	takeRecord(ai, total, a, rec, dir, files[a.lo:a.hi], opts)
	return true
}

// takeRecord makes the recorded artifact rec the artifact a of this load
// (index ai): its files (their diagnostic lists clipped, so that a pending
// rejection's diagnostic appends to a copy), and a visit. The record must
// not be given to another load.
func takeRecord(ai, total int, a *artifactRun, rec *Record, dir string, fs []*File, opts Options) {
	for i := range rec.files {
		f := &rec.files[i] // the record is this load's own: ReadRecord made it
		f.Diagnostics = slices.Clip(f.Diagnostics)
		fs[i] = f
	}
	a.accepted = rec.accepted
	a.pending.Store(0)
	if opts.Visit != nil {
		opts.Visit(&Artifact{Index: ai, Of: total, Dir: dir, Files: fs, Prior: -1, Key: a.key, Record: rec})
	}
}

// memoPass asks opts.Memo for every artifact whose files' content
// addresses the source knows without reading them, on opts.Workers
// goroutines, and visits those it has a record of; the others are read,
// hashed and asked for once their files are in (deferred, memoRead). It
// returns the indexes of the candidates still to read.
func memoPass(ctx context.Context, cands []candidate, files []*File, arts []*artifactRun, opts Options) []int {
	addrs := addresses(opts.Source, cands)
	hit := make([]bool, len(arts))
	par.For(len(arts), opts.Workers, func(ai int) {
		a := arts[ai]
		if addrs == nil || slices.Contains(addrs[a.lo:a.hi], "") {
			a.deferred = true
			return
		}
		if ctx.Err() == nil {
			hit[ai] = lookup(ai, len(arts), a, cands, addrs[a.lo:a.hi], nil, files, opts)
		}
	})
	todo := make([]int, 0, len(cands))
	for ai, a := range arts {
		if !hit[ai] {
			for i := a.lo; i < a.hi; i++ {
				todo = append(todo, i)
			}
		}
	}
	return todo
}

// heldFile is a file of a deferred artifact as it was read.
type heldFile struct {
	read source.File
	err  error
}

// memoRead finishes the deferred artifact a, whose files were all read
// (held): it keys them by the SHA-256 of their bytes and asks opts.Memo,
// and reports whether it had a record (then a is visited from it);
// otherwise it parses the files into files, for finish. An artifact with
// a file that could not be read is not asked for and gets no key.
func memoRead(ai, total int, a *artifactRun, cands []candidate, held []heldFile, files []*File, opts Options) bool {
	hs := held[a.lo:a.hi]
	readable := !slices.ContainsFunc(hs, func(h heldFile) bool { return h.err != nil })
	if readable {
		addrs, digests := make([]string, len(hs)), make([]vt.Digest, len(hs))
		for i, h := range hs {
			addrs[i], digests[i] = opts.Source.AddressOf(h.read.Data), vt.DigestOf(h.read.Data)
		}
		if lookup(ai, total, a, cands, addrs, digests, files, opts) {
			clear(hs)
			return true
		}
	} else {
		a.key = Key{}
	}
	for i := a.lo; i < a.hi; i++ {
		files[i] = &File{}
		readOne(files[i], cands[i], held[i].read, held[i].err)
		held[i] = heldFile{}
	}
	return false
}
