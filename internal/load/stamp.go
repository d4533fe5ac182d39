package load

import (
	"cmp"
	"slices"
	"strings"

	"github.com/r35157/journal-lint/internal/chain"
)

// A refresh of the query service loads the tree again onto the state it
// published (Options.Base). Every file it accepted then is immutable, so
// reading, hashing and parsing it again only confirms what Base already
// holds. Options.Stamp makes a load record a stat stamp of each file it
// accepted ([Result.Stamps]), taken from the open file just before its
// bytes were read (readfile.ReadStamped, no system call of its own), so
// that it describes exactly the bytes accepted; a later load with Base and
// those stamps (Options.Stamped) lists the tree and lstats every file, but
// reads only the files whose stamp is new or differs: new files, files
// rewritten, touched, replaced, renamed over or changed in mode. What it
// does not read contributes exactly what a read would have: its revision
// is in Base already (the chain outcome Unchanged), it has no error, and
// its path counts as present for fs/revision-missing. Everything else goes
// the ordinary way, so the validity diagnostics are those of a load that
// reads every file, as long as the stamps are right about the bytes.
//
// The stamp (readfile.Stamp) is a hash of the file's size, modification
// time and mode, and on Linux of its device, inode and change time, which
// no ordinary write, rename or utimes call keeps: an edit that keeps the
// size and sets the modification time back still changes the change time.
// The lstat of a file and the fstat of it open give the same stamp while
// it does not change. A file whose times lie so close to the moment it was
// read that a write right after could share them (readfile.Recent, git's
// "racily clean" entries) gets no stamp; the next refresh reads it again. Not detected:
// a change that keeps every stamped field, which takes writing to the disk
// under the mounted file system, a clock set back between two writes, or
// on a system other than Linux an edit that restores size and modification
// time. Start reads every byte.

// A stat stamp sum is 0 when it could not be had, which never matches.

// sameStat reports whether a and b are known stamp sums of the same file
// state. Whether a time was recent does not matter here: Options.Prior of
// the language server has always trusted what its caller vouches for.
func sameStat(a, b uint64) bool {
	return a != 0 && a == b
}

// Stamps are the stat stamps of the Journal files a load accepted without
// an error (Options.Stamp), by root-relative path: 24 bytes per file,
// the paths shared with the accepted revisions' sources. A Stamps is
// immutable and safe for concurrent use.
type Stamps struct {
	files []stamped // sorted by path
}

// stamped is the stamp sum of one file.
type stamped struct {
	rel string
	sum uint64
}

// Len returns the number of files with a stamp.
func (s *Stamps) Len() int {
	if s == nil {
		return 0
	}
	return len(s.files)
}

// find returns the index of the file at rel, looking at hint first (the
// walk lists files almost in path order), and whether it has a stamp.
func (s *Stamps) find(rel string, hint int) (int, bool) {
	if hint < len(s.files) && s.files[hint].rel == rel {
		return hint, true
	}
	return slices.BinarySearchFunc(s.files, rel, func(e stamped, rel string) int { return strings.Compare(e.rel, rel) })
}

// stampRun is what one load does with stamps: the earlier stamps it trusts
// (Options.Stamped, with Base) and which of them matched a listed file.
type stampRun struct {
	record  bool
	old     *Stamps
	matched []bool // by index in old.files
	same    int    // how many matched
}

// comparesStamps reports whether a load with opts compares the stamps of
// the walk with opts.Stamped.
func comparesStamps(opts Options) bool { return opts.Base != nil && opts.Stamped.Len() > 0 }

// splitStamped returns the candidates that the load must read, and the run
// that records which others opts.Stamped vouches for: a candidate whose
// stamp equals the one recorded for its path is not read (a file the
// source has no stamp of, such as an editor's buffer, always is).
// Without Base or without Stamped every candidate is read.
func splitStamped(opts Options, cands []candidate) ([]candidate, *stampRun) {
	run := &stampRun{record: opts.Stamp}
	if !comparesStamps(opts) {
		return cands, run
	}
	run.old = opts.Stamped
	run.matched = make([]bool, len(run.old.files))
	read := cands[:0:0]
	hint := 0
	for _, c := range cands {
		i, ok := run.old.find(c.rel, hint)
		if ok {
			hint = i + 1
		}
		if ok && sameStat(c.stat, run.old.files[i].sum) {
			run.matched[i] = true
			run.same++
			continue
		}
		read = append(read, c)
	}
	return read, run
}

// markSeen adds the paths of the files that were not read because their
// stamps matched to seen.
func (r *stampRun) markSeen(seen map[string]bool) {
	for i, m := range r.matched {
		if m {
			seen[r.old.files[i].rel] = true
		}
	}
}

// next returns the stamps after this load, or nil when it does not record
// them: those that matched, and those of the files read from disk (cands,
// files with a stamp) that the chain accepted or found Unchanged
// without any error diagnostic, with the stamp of the bytes read when it
// is not recent. A load that read nothing and matched every stamp returns
// the earlier Stamps itself.
func (r *stampRun) next(cands []candidate, files []*File) *Stamps {
	if !r.record {
		return nil
	}
	var fresh []stamped
	for i, f := range files {
		c := cands[i]
		if f.stat == 0 || f.recent || !f.Summary.Read || f.Diagnostics.HasErrors() ||
			(f.Outcome != chain.Appended && f.Outcome != chain.Unchanged) {
			continue
		}
		fresh = append(fresh, stamped{rel: c.rel, sum: f.stat})
	}
	if len(fresh) == 0 && r.old != nil && r.same == len(r.old.files) {
		return r.old
	}
	slices.SortFunc(fresh, func(a, b stamped) int { return cmp.Compare(a.rel, b.rel) })
	out := make([]stamped, 0, r.same+len(fresh))
	j := 0
	for i, m := range r.matched {
		if !m {
			continue
		}
		e := r.old.files[i]
		for j < len(fresh) && fresh[j].rel < e.rel {
			out = append(out, fresh[j])
			j++
		}
		out = append(out, e)
	}
	return &Stamps{files: append(out, fresh[j:]...)}
}
