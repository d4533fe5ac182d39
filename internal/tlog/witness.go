package tlog

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

// algCosignature is the signature type of an Ed25519 cosignature/v1 key
// (C2SP tlog-cosignature, C2SP signed-note).
const algCosignature = 0x04

// cosignatureKeyID returns the key ID of an Ed25519 cosigner: the first four
// bytes of SHA-256(name || "\n" || 0x04 || public key), big-endian.
func cosignatureKeyID(name string, pub ed25519.PublicKey) uint32 {
	h := sha256.New()
	h.Write([]byte(name + "\n"))
	h.Write([]byte{algCosignature})
	h.Write(pub)
	return binary.BigEndian.Uint32(h.Sum(nil))
}

// CosignedMessage is what a cosignature/v1 signs at time t for the note
// text body (C2SP tlog-cosignature, "Ed25519 signed message").
func CosignedMessage(body string, t uint64) []byte {
	return fmt.Appendf(nil, "cosignature/v1\ntime %d\n%s", t, body)
}

// Witness is a witness a log asks for cosignatures and a client trusts:
// its cosignature verifier key and the URL prefix of its add-checkpoint.
type Witness struct {
	// VKey is the witness's public key, a vkey of signature type 0x04
	// (<name>+<key ID hex>+<base64 of 0x04 and the Ed25519 key>).
	VKey string
	// URL is the submission prefix; add-checkpoint is below it.
	URL string
}

// cosigVerifier verifies Ed25519 cosignature/v1 signatures, which
// golang.org/x/mod/sumdb/note does not know.
type cosigVerifier struct {
	name string
	hash uint32
	pub  ed25519.PublicKey
}

// Name is the witness's name.
func (v *cosigVerifier) Name() string { return v.name }

// KeyHash is the key ID of the cosigner.
func (v *cosigVerifier) KeyHash() uint32 { return v.hash }

// Verify checks a timestamped Ed25519 signature (8-byte big-endian time,
// then the signature) over the cosigned message of the note text msg.
func (v *cosigVerifier) Verify(msg, sig []byte) bool {
	if len(sig) != 8+ed25519.SignatureSize {
		return false
	}
	t := binary.BigEndian.Uint64(sig)
	return t < 1<<63 && ed25519.Verify(v.pub, CosignedMessage(string(msg), t), sig[8:])
}

// NewCosignatureVerifier returns the note verifier of a cosignature/v1 vkey.
func NewCosignatureVerifier(vkey string) (note.Verifier, error) {
	name, rest, ok1 := strings.Cut(vkey, "+")
	hash, key, ok2 := strings.Cut(rest, "+")
	h, err1 := strconv.ParseUint(hash, 16, 32)
	b, err2 := base64.StdEncoding.DecodeString(key)
	switch {
	case !ok1 || !ok2 || name == "" || strings.ContainsAny(name, " \n+") || err1 != nil || len(hash) != 8 || err2 != nil:
		return nil, fmt.Errorf("witness key %q is not a vkey (name+hash+key)", vkey)
	case len(b) != 1+ed25519.PublicKeySize || b[0] != algCosignature:
		return nil, fmt.Errorf("witness key of %s is not an Ed25519 cosignature/v1 key (type 0x04)", name)
	}
	v := &cosigVerifier{name: name, hash: uint32(h), pub: ed25519.PublicKey(b[1:])}
	if cosignatureKeyID(name, v.pub) != v.hash {
		return nil, fmt.Errorf("witness key of %s: the key ID does not match the key", name)
	}
	return v, nil
}

// NewCosignatureVerifierKey returns the vkey of the Ed25519 cosigner name
// with public key pub.
func NewCosignatureVerifierKey(name string, pub ed25519.PublicKey) string {
	return fmt.Sprintf("%s+%08x+%s", name, cosignatureKeyID(name, pub), base64.StdEncoding.EncodeToString(append([]byte{algCosignature}, pub...)))
}

// KeyID returns the name and key hash of the note key vkey, as its first
// two fields ("name+hash"): what tells two keys of one name apart.
func KeyID(vkey string) string {
	name, rest, _ := strings.Cut(vkey, "+")
	hash, _, _ := strings.Cut(rest, "+")
	return name + "+" + strings.ToLower(hash)
}

// keyID is KeyID of a key known by its name and key hash.
func keyID(name string, hash uint32) string { return fmt.Sprintf("%s+%08x", name, hash) }

// Cosignatures returns the times of the valid cosignatures on msg, a
// signed checkpoint, by the witnesses of vkeys, by KeyID (two keys of one
// name are two witnesses), one per key. Signatures of other keys are
// ignored.
func Cosignatures(msg []byte, vkeys []string) (map[string]time.Time, error) {
	var vs []note.Verifier
	for _, k := range vkeys {
		v, err := NewCosignatureVerifier(k)
		if err != nil {
			return nil, err
		}
		vs = append(vs, v)
	}
	out := map[string]time.Time{}
	n, err := note.Open(msg, note.VerifierList(vs...))
	var unverified *note.UnverifiedNoteError
	if errors.As(err, &unverified) {
		return out, nil // no cosignature of a trusted witness
	}
	if err != nil {
		return nil, err
	}
	for _, s := range n.Sigs {
		b, err := base64.StdEncoding.DecodeString(s.Base64)
		if err != nil || len(b) < 12 {
			continue
		}
		t := time.Unix(int64(binary.BigEndian.Uint64(b[4:12])), 0)
		if id := keyID(s.Name, s.Hash); t.After(out[id]) {
			out[id] = t
		}
	}
	return out, nil
}

// FreshCosignature returns an error when the witness vkey's cosignature
// on msg, a signed checkpoint, carries a time older than maxAge at now:
// every client that holds the log's policy (max-age) would refuse the
// checkpoint as stale, so the operator keeps no such cosignature. A
// missing cosignature is an error too.
func FreshCosignature(msg []byte, vkey string, maxAge time.Duration, now time.Time) error {
	name, _, _ := strings.Cut(vkey, "+")
	times, err := Cosignatures(msg, []string{vkey})
	if err != nil {
		return err
	}
	at, ok := times[KeyID(vkey)]
	switch {
	case !ok:
		return fmt.Errorf("witness %s: no cosignature of its key on the checkpoint", name)
	case at.After(now.Add(maxClockSkew)):
		return fmt.Errorf("witness %s cosigned with the time %s, ahead of this machine's clock, which would stretch the tlog: block's max-age: its cosignature is not kept", name, at.UTC().Format(time.RFC3339))
	case now.Sub(at) > maxAge:
		return fmt.Errorf("witness %s cosigned with the time %s, older than the tlog: block's max-age %s: its cosignature is not kept", name, at.UTC().Format(time.RFC3339), maxAge)
	}
	return nil
}

// signatureLines splits msg, a signed note, into its text with the blank
// line after it, and its signature lines ("— NAME BASE64\n"), each with
// the KeyID of its key ("" for a line that is no signature line).
func signatureLines(msg []byte) (text []byte, lines [][]byte, ids []string) {
	split := bytes.LastIndex(msg, []byte("\n\n"))
	if split < 0 {
		return msg, nil, nil
	}
	for _, line := range bytes.SplitAfter(msg[split+2:], []byte("\n")) {
		if len(line) == 0 {
			continue
		}
		id := ""
		if rest, ok := strings.CutPrefix(strings.TrimSuffix(string(line), "\n"), "— "); ok {
			name, b64, found := strings.Cut(rest, " ")
			if sig, err := base64.StdEncoding.DecodeString(b64); found && err == nil && len(sig) >= 4 {
				id = keyID(name, binary.BigEndian.Uint32(sig))
			}
		}
		lines, ids = append(lines, line), append(ids, id)
	}
	return msg[:split+2], lines, ids
}

// keepSignatures returns msg, a signed note, with the signature lines
// whose KeyID (signatureLines) keep accepts.
func keepSignatures(msg []byte, keep func(id string) bool) []byte {
	text, lines, ids := signatureLines(msg)
	out := append([]byte(nil), text...)
	for i, line := range lines {
		if keep(ids[i]) {
			out = append(out, line...)
		}
	}
	return out
}

// OperatorNote checks that msg, a signed checkpoint, holds only signature
// lines its operator's job writes: one of the log's key vkey and at most
// one of each witness key of witnesses, every one of them verified; a
// line of any other key, a repeated key or a line that does not verify is
// an error (the witnesses' lines lie outside what the log's key signs,
// and a note verifier skips a repeated key). It returns the time of each
// witness's cosignature, by KeyID.
func OperatorNote(msg []byte, vkey string, witnesses []string) (map[string]time.Time, error) {
	log, err := note.NewVerifier(vkey)
	if err != nil {
		return nil, err
	}
	verifiers := []note.Verifier{log}
	for _, k := range witnesses {
		v, err := NewCosignatureVerifier(k)
		if err != nil {
			return nil, err
		}
		verifiers = append(verifiers, v)
	}
	known := map[string]bool{}
	for _, v := range verifiers {
		known[keyID(v.Name(), v.KeyHash())] = true
	}
	_, lines, ids := signatureLines(msg)
	if len(lines) == 0 {
		return nil, errors.New("the checkpoint has no signature lines")
	}
	seen := map[string]bool{}
	for i, id := range ids {
		if !known[id] || seen[id] {
			return nil, fmt.Errorf("the checkpoint has a signature line of no key of the log or its witnesses, or one key twice: %q", strings.TrimSpace(string(lines[i])))
		}
		seen[id] = true
	}
	n, err := note.Open(msg, note.VerifierList(verifiers...))
	if err != nil {
		return nil, err
	}
	if len(n.Sigs) != len(lines) {
		return nil, errors.New("a signature line of the checkpoint does not verify")
	}
	return Cosignatures(msg, witnesses)
}

// OnlySignatures returns msg, a signed checkpoint, with the signature
// lines of the log's key vkey and of the witness keys witnesses only:
// what tlog witness writes, so that a witness dropped from the tlog:
// block leaves no line behind that OperatorNote would refuse.
func OnlySignatures(msg []byte, vkey string, witnesses []string) []byte {
	keep := map[string]bool{KeyID(vkey): true}
	for _, w := range witnesses {
		keep[KeyID(w)] = true
	}
	return keepSignatures(msg, func(id string) bool { return keep[id] })
}

// maxClockSkew is how far ahead of this machine's clock a witness's
// cosignature time may be (FreshCosignature).
const maxClockSkew = 10 * time.Minute

// maxWitnessResponse bounds what a witness may answer.
const maxWitnessResponse = 1 << 16

// AddCheckpoint asks the witness w to cosign cp (C2SP tlog-witness
// add-checkpoint), proving cp consistent with the size the witness holds
// from hashes (the stored hashes of cp's tree, see [Hashes]), and returns
// the note with the witness's signature lines appended. Errors name the
// witness and what it answered.
func AddCheckpoint(ctx context.Context, client *http.Client, w Witness, cp Signed, hashes tlog.HashReader) ([]byte, error) {
	old := int64(0)
	for attempt := 0; attempt < 2; attempt++ {
		var body bytes.Buffer
		fmt.Fprintf(&body, "old %d\n", old)
		if old > 0 && old < cp.N {
			proof, err := tlog.ProveTree(cp.N, old, hashes)
			if err != nil {
				return nil, fmt.Errorf("witness %s: consistency proof from size %d: %w", w.URL, old, err)
			}
			for _, h := range proof {
				fmt.Fprintf(&body, "%s\n", h)
			}
		}
		body.WriteString("\n")
		body.Write(cp.Note)
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimSuffix(w.URL, "/")+"/add-checkpoint", &body)
		if err != nil {
			return nil, fmt.Errorf("witness %s: %w", w.URL, err)
		}
		resp, err := client.Do(req)
		if err != nil {
			return nil, fmt.Errorf("witness %s: %w", w.URL, err)
		}
		answer, err := io.ReadAll(io.LimitReader(resp.Body, maxWitnessResponse))
		resp.Body.Close()
		if err != nil {
			return nil, fmt.Errorf("witness %s: %w", w.URL, err)
		}
		switch {
		case resp.StatusCode == http.StatusOK:
			return mergeSignatures(cp.Note, answer, w)
		case resp.StatusCode == http.StatusConflict && resp.Header.Get("Content-Type") == "text/x.tlog.size" && attempt == 0:
			n, err := strconv.ParseInt(strings.TrimSuffix(string(answer), "\n"), 10, 64)
			if err != nil || n < 0 {
				return nil, fmt.Errorf("witness %s: a conflict without a size: %q", w.URL, answer)
			}
			if n > cp.N {
				return nil, fmt.Errorf("%w: witness %s holds size %d, larger than this checkpoint's %d", ErrInconsistent, w.URL, n, cp.N)
			}
			old = n
		default:
			return nil, fmt.Errorf("witness %s refused the checkpoint (size %d, from size %d): %s: %q", w.URL, cp.N, old, resp.Status, answer)
		}
	}
	return nil, fmt.Errorf("witness %s refused the checkpoint (size %d): its size changed while it was asked", w.URL, cp.N)
}

// mergeSignatures appends the witness's signature lines in answer to the
// signed note msg, keeping only valid cosignatures of w (C2SP tlog-witness:
// the client ignores cosignatures from unknown keys).
func mergeSignatures(msg, answer []byte, w Witness) ([]byte, error) {
	if len(answer) == 0 || answer[len(answer)-1] != '\n' {
		return nil, fmt.Errorf("witness %s answered no signature lines", w.URL)
	}
	v, err := NewCosignatureVerifier(w.VKey)
	if err != nil {
		return nil, err
	}
	// The new cosignatures replace the witness's older ones (of its key,
	// not of another key of the same name), which go first: a note keeps
	// one signature of a key, the first it meets.
	old := keyID(v.Name(), v.KeyHash())
	out := keepSignatures(msg, func(id string) bool { return id != old })
	n, err := note.Open(append(append([]byte(nil), out...), answer...), note.VerifierList(v))
	if err != nil {
		return nil, fmt.Errorf("witness %s: its answer holds no valid cosignature of its key: %v", w.URL, err)
	}
	for _, s := range n.Sigs {
		out = fmt.Appendf(out, "— %s %s\n", s.Name, s.Base64)
	}
	return out, nil
}
