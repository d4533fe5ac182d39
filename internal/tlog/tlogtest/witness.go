// Package tlogtest is a C2SP tlog-witness for tests: an HTTP server on
// 127.0.0.1 that cosigns the checkpoints of one log when they are
// consistent with the last one it cosigned, as a real witness does.
package tlogtest

import (
	"bufio"
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/mod/sumdb/tlog"

	itlog "github.com/r35157/journal-lint/internal/tlog"
)

// Witness is a running test witness.
type Witness struct {
	// VKey is its cosignature/v1 verifier key; URL its submission prefix.
	VKey, URL string
	// Now is the time its cosignatures carry; time.Now when nil.
	Now func() time.Time

	name    string
	priv    ed25519.PrivateKey
	logVKey string
	srv     *httptest.Server

	mu   sync.Mutex
	tree tlog.Tree // the latest cosigned checkpoint's
}

// Start starts a witness named name that trusts the log key logVKey.
// Close stops it.
func Start(name, logVKey string) *Witness {
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		panic(err)
	}
	w := &Witness{VKey: itlog.NewCosignatureVerifierKey(name, pub), name: name, priv: priv, logVKey: logVKey}
	w.srv = httptest.NewServer(http.HandlerFunc(w.addCheckpoint))
	w.URL = w.srv.URL + "/"
	return w
}

// Close stops the witness.
func (w *Witness) Close() { w.srv.Close() }

// Size returns the size of the latest checkpoint the witness cosigned.
func (w *Witness) Size() int64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.tree.N
}

func (w *Witness) addCheckpoint(rw http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != "/add-checkpoint" {
		http.Error(rw, "not found", http.StatusNotFound)
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, 1<<16))
	if err != nil {
		http.Error(rw, err.Error(), http.StatusBadRequest)
		return
	}
	head, msg, ok := bytes.Cut(body, []byte("\n\n"))
	sc := bufio.NewScanner(bytes.NewReader(head))
	if !ok || !sc.Scan() || !strings.HasPrefix(sc.Text(), "old ") {
		http.Error(rw, "no old size line", http.StatusBadRequest)
		return
	}
	old, err := strconv.ParseInt(strings.TrimPrefix(sc.Text(), "old "), 10, 64)
	if err != nil {
		http.Error(rw, "bad old size", http.StatusBadRequest)
		return
	}
	var proof tlog.TreeProof
	for sc.Scan() {
		h, err := tlog.ParseHash(sc.Text())
		if err != nil {
			http.Error(rw, "bad proof line", http.StatusBadRequest)
			return
		}
		proof = append(proof, h)
	}
	cp, err := itlog.Open(msg, w.logVKey, "")
	if err != nil {
		http.Error(rw, err.Error(), http.StatusForbidden)
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	switch {
	case old > cp.N:
		http.Error(rw, "old size beyond the checkpoint", http.StatusBadRequest)
		return
	case old != w.tree.N:
		rw.Header().Set("Content-Type", "text/x.tlog.size")
		rw.WriteHeader(http.StatusConflict)
		fmt.Fprintf(rw, "%d\n", w.tree.N)
		return
	case old == cp.N && cp.Hash != w.tree.Hash && old > 0:
		http.Error(rw, "another root for the same size", http.StatusConflict)
		return
	case old > 0 && old < cp.N && tlog.CheckTree(proof, cp.N, cp.Hash, old, w.tree.Hash) != nil:
		http.Error(rw, "the consistency proof does not verify", http.StatusUnprocessableEntity)
		return
	}
	w.tree = cp.Tree
	now := time.Now()
	if w.Now != nil {
		now = w.Now()
	}
	t := uint64(now.Unix())
	sig := ed25519.Sign(w.priv, itlog.CosignedMessage(cp.Text(), t))
	v, _ := itlog.NewCosignatureVerifier(w.VKey)
	b := binary.BigEndian.AppendUint32(nil, v.KeyHash())
	b = binary.BigEndian.AppendUint64(b, t)
	b = append(b, sig...)
	fmt.Fprintf(rw, "— %s %s\n", w.name, base64.StdEncoding.EncodeToString(b))
}
