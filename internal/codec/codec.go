// Package codec is the compact binary encoding of the records that
// journal-lint keeps in its persistent cache (package internal/memo): an
// append-only [Writer] of unsigned varints, signed varints, strings and
// bytes, and a [Reader] that reads them back in the same order with a
// sticky error, so that a decoder reads a whole record and checks once.
//
// The encoding carries no field names or types: each record type writes
// and reads its own fields in one fixed order, next to each other in one
// file, and the cache's key names the record format's version. A record
// that does not decode (a truncated or foreign object) is an error, never a
// panic.
package codec

import (
	"encoding/binary"
	"errors"
	"math"
	"time"
	"unsafe"

	vt "github.com/r35157/journal-lint/journal/valuetypes"
)

// ErrCorrupt is the error of a [Reader] that ran past its data or met a
// length that cannot be.
var ErrCorrupt = errors.New("codec: corrupt record")

// Writer appends encoded values to a byte slice. The zero Writer is ready
// to use.
type Writer struct {
	buf []byte
}

// NewWriter returns a Writer that appends to buf (which may be nil).
func NewWriter(buf []byte) *Writer { return &Writer{buf: buf} }

// Bytes returns the encoded bytes, shared with the Writer.
func (w *Writer) Bytes() []byte { return w.buf }

// Uint appends an unsigned varint.
func (w *Writer) Uint(v uint64) { w.buf = binary.AppendUvarint(w.buf, v) }

// Int appends a signed varint (zig-zag, so small negative numbers stay small).
func (w *Writer) Int(v int64) { w.buf = binary.AppendVarint(w.buf, v) }

// Bool appends one byte, 1 for true.
func (w *Writer) Bool(v bool) {
	if v {
		w.buf = append(w.buf, 1)
	} else {
		w.buf = append(w.buf, 0)
	}
}

// String appends the length of s and its bytes.
func (w *Writer) String(s string) {
	w.Uint(uint64(len(s)))
	w.buf = append(w.buf, s...)
}

// Raw appends the length of b and its bytes.
func (w *Writer) Raw(b []byte) {
	w.Uint(uint64(len(b)))
	w.buf = append(w.buf, b...)
}

// Fixed appends b as it is, without a length: for values of a size both
// sides know (a digest).
func (w *Writer) Fixed(b []byte) { w.buf = append(w.buf, b...) }

// Reader reads the values a [Writer] wrote, in the same order. After the
// first failure every read returns a zero value and [Reader.Err] reports
// [ErrCorrupt].
type Reader struct {
	data []byte
	err  error
	// strs, when set, interns the strings read by Reader.Interned.
	strs map[string]string
	// share says that the strings read are views of data.
	share bool
}

// NewReader returns a Reader of data. The strings it returns share no
// memory with data.
func NewReader(data []byte) *Reader { return &Reader{data: data} }

// NewSharingReader returns a Reader of data whose strings (String, and
// Interned without a table) are views of data rather than copies: for a
// caller that keeps data alive anyway, as one block the garbage collector
// need not scan, and never changes it while a string read lives. A
// summary of a large tree reads hundreds of thousands of strings.
func NewSharingReader(data []byte) *Reader { return &Reader{data: data, share: true} }

// Intern makes [Reader.Interned] return one string for equal strings,
// through table (shared by several Readers when they are used one at a
// time, never at once).
func (r *Reader) Intern(table map[string]string) { r.strs = table }

// Err returns ErrCorrupt once a read failed, else nil.
func (r *Reader) Err() error { return r.err }

// Left returns the number of bytes not read yet.
func (r *Reader) Left() int { return len(r.data) }

// Done returns ErrCorrupt when a read failed or bytes are left over.
func (r *Reader) Done() error {
	if r.err == nil && len(r.data) > 0 {
		r.err = ErrCorrupt
	}
	return r.err
}

// Fail marks the record corrupt, for a decoder that read a value that
// cannot be.
func (r *Reader) Fail() { r.fail() }

// fail records the failure and empties the data.
func (r *Reader) fail() {
	r.err = ErrCorrupt
	r.data = nil
}

// Uint reads an unsigned varint.
func (r *Reader) Uint() uint64 {
	v, n := binary.Uvarint(r.data)
	if n <= 0 {
		r.fail()
		return 0
	}
	r.data = r.data[n:]
	return v
}

// Int reads a signed varint.
func (r *Reader) Int() int64 {
	v, n := binary.Varint(r.data)
	if n <= 0 {
		r.fail()
		return 0
	}
	r.data = r.data[n:]
	return v
}

// Len reads a count of items that each take at least one byte, and fails
// when fewer bytes are left than it says: a corrupt count never makes a
// decoder allocate more than the record holds.
func (r *Reader) Len() int {
	n := r.Uint()
	if n > uint64(len(r.data)) || n > math.MaxInt32 {
		r.fail()
		return 0
	}
	return int(n)
}

// SmallInt reads an unsigned varint that must fit an int.
func (r *Reader) SmallInt() int {
	v := r.Uint()
	if v > math.MaxInt32 {
		r.fail()
		return 0
	}
	return int(v)
}

// Bool reads one byte written by [Writer.Bool].
func (r *Reader) Bool() bool {
	if len(r.data) == 0 || r.data[0] > 1 {
		r.fail()
		return false
	}
	v := r.data[0] == 1
	r.data = r.data[1:]
	return v
}

// take returns the next n bytes.
func (r *Reader) take(n int) []byte {
	if n < 0 || n > len(r.data) {
		r.fail()
		return nil
	}
	b := r.data[:n:n]
	r.data = r.data[n:]
	return b
}

// String reads a string written by [Writer.String].
func (r *Reader) String() string {
	return r.str(r.take(r.Len()))
}

// str returns b as a string: a copy, or for a sharing Reader
// (NewSharingReader) a view of the same memory.
func (r *Reader) str(b []byte) string {
	switch {
	case len(b) == 0:
		return ""
	case r.share:
		return unsafe.String(&b[0], len(b))
	}
	return string(b)
}

// Interned reads a string written by [Writer.String] and returns the one
// string of the Reader's table (Reader.Intern) equal to it, for the
// strings a record repeats (codes, paths); without a table it is
// [Reader.String].
func (r *Reader) Interned() string {
	b := r.take(r.Len())
	if len(b) == 0 {
		return ""
	}
	if r.strs == nil {
		return r.str(b)
	}
	if s, ok := r.strs[string(b)]; ok {
		return s
	}
	s := string(b)
	r.strs[s] = s
	return s
}

// Raw reads bytes written by [Writer.Raw], as a new slice.
func (r *Reader) Raw() []byte {
	b := r.take(r.Len())
	if b == nil {
		return nil
	}
	return append([]byte(nil), b...)
}

// Slice reads bytes written by [Writer.Raw], as a slice of the Reader's
// data (capacity clipped), for a caller that keeps the data anyway.
func (r *Reader) Slice() []byte { return r.take(r.Len()) }

// Fixed reads len(dst) bytes into dst.
func (r *Reader) Fixed(dst []byte) { copy(dst, r.take(len(dst))) }

// Digest appends d: whether it is present, then its 32 bytes.
func (w *Writer) Digest(d vt.Digest) {
	w.Bool(!d.IsZero())
	if !d.IsZero() {
		sum := d.Sum()
		w.Fixed(sum[:])
	}
}

// Digest reads a digest written by [Writer.Digest].
func (r *Reader) Digest() vt.Digest {
	if !r.Bool() {
		return vt.Digest{}
	}
	var sum [32]byte
	r.Fixed(sum[:])
	return vt.DigestFromSum(sum)
}

// Timestamp appends t: whether it is present, then its Unix seconds.
func (w *Writer) Timestamp(t vt.Timestamp) {
	w.Bool(!t.IsZero())
	if !t.IsZero() {
		w.Int(t.Time().Unix())
	}
}

// Timestamp reads a timestamp written by [Writer.Timestamp].
func (r *Reader) Timestamp() vt.Timestamp {
	if !r.Bool() {
		return vt.Timestamp{}
	}
	return vt.TimestampOf(time.Unix(r.Int(), 0))
}
