package diag

import (
	"github.com/r35157/journal-lint/internal/codec"
	"github.com/r35157/journal-lint/rules"
)

// A diagnostic kept in journal-lint's persistent cache (package
// internal/memo) is written with [AppendList] and read back with
// [ReadList]: every field, in the order of the Diagnostic type, so that a
// cached diagnostic renders exactly as the one it was made from. Paths are
// root-relative as everywhere in a List, never absolute.

// AppendList writes l to w.
func AppendList(w *codec.Writer, l List) {
	w.Uint(uint64(len(l)))
	for i := range l {
		appendDiagnostic(w, &l[i])
	}
}

// ReadList reads a List written by [AppendList]; nil for an empty one. A
// corrupt record makes r's error set (codec.Reader.Err) and the list
// partial.
func ReadList(r *codec.Reader) List {
	n := r.Len()
	if n == 0 {
		return nil
	}
	l := make(List, n)
	for i := range l {
		readDiagnostic(r, &l[i])
		if r.Err() != nil {
			return nil
		}
	}
	return l
}

func appendDiagnostic(w *codec.Writer, d *Diagnostic) {
	w.String(d.Code)
	w.Uint(uint64(d.Severity))
	w.String(d.Message)
	w.String(d.Path)
	AppendRange(w, d.Range)
	w.Uint(uint64(len(d.Related)))
	for _, rel := range d.Related {
		w.String(rel.Path)
		AppendRange(w, rel.Range)
		w.String(rel.Message)
	}
	w.String(d.Help)
	AppendFixes(w, d.Fixes)
	w.String(d.Subject)
}

func readDiagnostic(r *codec.Reader, d *Diagnostic) {
	d.Code = r.Interned()
	d.Severity = rules.Severity(r.SmallInt())
	d.Message = r.String()
	d.Path = r.Interned()
	d.Range = ReadRange(r)
	if n := r.Len(); n > 0 {
		d.Related = make([]Related, n)
		for i := range d.Related {
			d.Related[i] = Related{Path: r.Interned(), Range: ReadRange(r), Message: r.String()}
		}
	}
	d.Help = r.Interned()
	d.Fixes = ReadFixes(r)
	d.Subject = r.String()
}

// AppendFixes writes fixes to w.
func AppendFixes(w *codec.Writer, fixes []Fix) {
	w.Uint(uint64(len(fixes)))
	for _, f := range fixes {
		w.String(f.Title)
		w.Uint(uint64(len(f.Edits)))
		for _, e := range f.Edits {
			AppendRange(w, e.Range)
			w.String(e.NewText)
		}
	}
}

// ReadFixes reads fixes written by [AppendFixes]; nil for none.
func ReadFixes(r *codec.Reader) []Fix {
	n := r.Len()
	if n == 0 {
		return nil
	}
	fixes := make([]Fix, n)
	for i := range fixes {
		f := &fixes[i]
		f.Title = r.String()
		if m := r.Len(); m > 0 {
			f.Edits = make([]Edit, m)
			for j := range f.Edits {
				f.Edits[j] = Edit{Range: ReadRange(r), NewText: r.String()}
			}
		}
	}
	return fixes
}

// AppendRange writes rg to w.
func AppendRange(w *codec.Writer, rg Range) {
	for _, p := range [2]Pos{rg.Start, rg.End} {
		w.Int(int64(p.Offset))
		w.Int(int64(p.Line))
		w.Int(int64(p.Column))
	}
}

// ReadRange reads a range written by [AppendRange].
func ReadRange(r *codec.Reader) Range {
	var rg Range
	for _, p := range [2]*Pos{&rg.Start, &rg.End} {
		p.Offset = int(r.Int())
		p.Line = int(r.Int())
		p.Column = int(r.Int())
	}
	return rg
}
