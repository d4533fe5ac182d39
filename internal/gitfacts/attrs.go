package gitfacts

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"math"
	"runtime"
	"slices"
	"strings"

	"github.com/r35157/journal-lint/internal/gitrepo"
)

// Attrs holds the attributes of one Journal file that decide whether
// git converts its bytes (gitattributes(5)), as git check-attr reports
// them: "set", "unset", "unspecified" or a value.
type Attrs struct{ Text, EOL, Filter, Ident, Encoding string }

// AttrNames returns the attributes of [Attrs] as git names them, in the
// order of its fields: the names to ask git check-attr for.
func AttrNames() []string {
	return []string{"text", "eol", "filter", "ident", "working-tree-encoding"}
}

// AttrsOf makes an Attrs of git's values in the order of AttrNames.
func AttrsOf(v []string) Attrs {
	return Attrs{Text: v[0], EOL: v[1], Filter: v[2], Ident: v[3], Encoding: v[4]}
}

// SharedAttrs returns the Attrs of each of the attribute values vs (in
// the order of AttrNames), equal sets shared.
func SharedAttrs(vs [][]string) []*Attrs {
	shared := map[Attrs]*Attrs{}
	out := make([]*Attrs, len(vs))
	for i, v := range vs {
		a := AttrsOf(v)
		p, ok := shared[a]
		if !ok {
			p = new(Attrs)
			*p = a
			shared[a] = p
		}
		out[i] = p
	}
	return out
}

// AttrTable holds the attributes (Attrs) of root-relative Journal
// paths: of a path an index listing holds (Facts.Index), one byte at its
// entry's position, naming one of the few distinct sets; of any other
// path, a map entry. A map of every path would take about 33 bytes a
// file (3.3 MB at 100,000). The zero AttrTable holds nothing and asks no
// index; methods are not safe for concurrent use.
type AttrTable struct {
	index   *gitrepo.IndexList
	rootRel string
	sets    []*Attrs // byEntry[i] is 1 + the position of entry i's set
	byEntry []uint8
	other   map[string]*Attrs
}

// NewAttrTable returns an empty AttrTable for the paths under the root at
// rootRel, keeping those that index holds (nil for none) by position.
func NewAttrTable(index *gitrepo.IndexList, rootRel string) *AttrTable {
	t := &AttrTable{index: index, rootRel: rootRel, other: map[string]*Attrs{}}
	if index != nil {
		t.byEntry = make([]uint8, index.Len())
	}
	return t
}

// position returns the position of p's entry in t.index.
func (t *AttrTable) position(p string) (int, bool) {
	if t.index == nil {
		return 0, false
	}
	return t.index.Position(t.rootRel, p)
}

// Get returns the attributes of the root-relative path p; nil when t
// (which may be nil) has none.
func (t *AttrTable) Get(p string) *Attrs {
	if t == nil {
		return nil
	}
	if i, ok := t.position(p); ok && t.byEntry[i] != 0 {
		return t.sets[t.byEntry[i]-1]
	}
	return t.other[p]
}

// Set records a as the attributes of the root-relative path p.
func (t *AttrTable) Set(p string, a *Attrs) {
	if i, ok := t.position(p); ok {
		n := slices.IndexFunc(t.sets, func(s *Attrs) bool { return *s == *a })
		if n < 0 && len(t.sets) < math.MaxUint8 {
			n = len(t.sets)
			t.sets = append(t.sets, a)
		}
		if n >= 0 {
			t.byEntry[i] = uint8(n + 1)
			delete(t.other, p)
			return
		}
		t.byEntry[i] = 0 // too many sets: kept in other
	}
	t.other[p] = a
}

// Clone returns a copy of t that shares nothing t writes; nil for nil.
func (t *AttrTable) Clone() *AttrTable {
	if t == nil {
		return nil
	}
	c := *t
	c.sets, c.byEntry, c.other = slices.Clone(t.sets), slices.Clone(t.byEntry), maps.Clone(t.other)
	return &c
}

// Conversion is the configuration that decides, beside the attributes,
// how git converts line endings (git-config(1), core.autocrlf and
// core.eol), as [ReadConversion] reads it.
type Conversion struct {
	// AutoCRLF is core.autocrlf as git reads it: "true", "input" or
	// "false" (also when unset).
	AutoCRLF string
	// EOL is core.eol: "lf", "crlf" or "native" (also when unset).
	EOL string
}

// ReadConversion reads core.autocrlf and core.eol of repo as git does: a
// boolean core.autocrlf in any of git's spellings (a key without a value
// is true), or "input". Its errors are git's.
func ReadConversion(ctx context.Context, repo *gitrepo.Repo) (Conversion, error) {
	c := Conversion{AutoCRLF: "false", EOL: "native"}
	v, err := repo.Config(ctx, "core.autocrlf")
	if err != nil {
		return c, err
	}
	if strings.EqualFold(v, "input") {
		c.AutoCRLF = "input"
	} else if on, err := repo.ConfigBool(ctx, "core.autocrlf", false); err != nil {
		return c, err
	} else if on {
		c.AutoCRLF = "true"
	}
	eol, err := repo.Config(ctx, "core.eol")
	if err != nil {
		return c, err
	}
	if eol = strings.ToLower(eol); eol == "lf" || eol == "crlf" {
		c.EOL = eol
	}
	return c, nil
}

// CheckoutWritesCRLF reports whether a checkout under conv turns the LF
// line endings of a file with the attributes a into CRLF
// (gitattributes(5), "text" and "eol"): eol=crlf; text set or auto
// without eol under core.autocrlf=true, or under core.eol=crlf (native
// on Windows) without core.autocrlf; no text attribute under
// core.autocrlf=true. Never with text unset or eol=lf.
func (a Attrs) CheckoutWritesCRLF(conv Conversion) bool {
	switch {
	case a.Text == "unset" || a.EOL == "lf":
		return false
	case a.EOL == "crlf":
		return true
	case a.Text == "unspecified":
		return conv.AutoCRLF == "true"
	case conv.AutoCRLF != "false":
		return conv.AutoCRLF == "true"
	}
	return conv.EOL == "crlf" || conv.EOL == "native" && runtime.GOOS == "windows"
}

// ConvertsNothing reports whether git stores and checks out a file with
// the attributes a byte for byte, under core.autocrlf set to autocrlf
// (Conversion.AutoCRLF; "" counts as unset): no text conversion (text
// unset, or unspecified without eol and without core.autocrlf), no
// filter, no $Id$ expansion, no working-tree encoding.
func (a Attrs) ConvertsNothing(autocrlf string) bool {
	unsetOr := func(v string) bool { return v == "unspecified" || v == "unset" }
	if !unsetOr(a.Filter) || !unsetOr(a.Ident) || !unsetOr(a.Encoding) {
		return false
	}
	switch a.Text {
	case "unset":
		return true
	case "unspecified":
		return a.EOL == "unspecified" && (autocrlf == "" || strings.EqualFold(autocrlf, "false"))
	}
	return false
}

// Describe says which attributes of a file make git convert it, for
// messages: "text: auto, eol: unspecified", or that core.autocrlf and
// core.eol decide.
func (a *Attrs) Describe() string {
	if a.Text == "unspecified" && a.EOL == "unspecified" {
		return "no text attribute, so core.autocrlf and core.eol decide"
	}
	return fmt.Sprintf("text: %s, eol: %s", a.Text, a.EOL)
}

// NoConversionLines are the .gitattributes lines that keep git from
// converting Journals (and examples): their help texts suggest them.
const NoConversionLines = "*.journal -text\n*.journal.example -text"

// ToLF returns b with every CRLF turned into LF: the bytes git stores of a
// text file that it converts on commit (gitattributes(5), "eol").
func ToLF(b []byte) []byte { return bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n")) }
