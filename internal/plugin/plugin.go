// Package plugin is the host side of journal-lint rule packs: separate
// executables, built with package plugins/sdk, that journal-lint starts with
// hashicorp/go-plugin and that add diagnostics to `check`.
//
// It is the one owner of a pack's lifecycle. A command launches the packs
// its configuration pins ([Launch], or [Start], which waits), validates the
// configuration against their codes ([Packs.Registry]), streams a load's
// documents to them ([Packs.Stream]) and stops them ([Packs.Close]): the
// command and the check see one value, a [*Packs], and nothing else starts
// or stops a pack. It speaks the protocol only through package
// plugins/proto/rulepack/v1/wire, and turns its parsed documents into the
// wire's with package protocol.
//
// # Trust and start-up
//
// Every pack is pinned by the sha256 of its executable in .journal-lint.yaml.
// The host copies the file into a private directory, hashing the bytes as it
// copies them, and runs the copy only when they match: the bytes that run
// are the bytes that were verified, whatever happens to the configured file
// meanwhile. A mismatch is a [*VerifyError], never a diagnostic. The pack then
// runs with an empty standard input (it never inherits the host's), a
// minimal environment (only what go-plugin's handshake needs, plus the
// lifeline), and its working directory set to the configuration file's
// directory. Only the gRPC protocol is allowed, at protocol major version
// [wire.Version] (package plugins/proto/rulepack/v1/wire) through VersionedPlugins.
//
// # Isolation
//
// A pack that cannot start, crashes, panics, hangs past its timeout, writes
// garbage where go-plugin expects its handshake, describes itself badly or
// returns a malformed diagnostic fails as a whole: its partial results are
// dropped and it yields one plugin/failed error diagnostic ([Failure]) that
// names the pack and quotes the tail of its stderr. Built-in results are
// unaffected.
//
// # Lifetime
//
// Each pack runs in its own process group. The host kills the whole group
// (the pack and anything it started) when a call times out, when the run is
// cancelled, when the pack exits and when it is closed, and it never waits
// on the pack's stdout or stderr past that: a grandchild that keeps them
// open cannot keep journal-lint alive. The host also holds the write end of
// a pipe whose read end is the pack's lifeline: when journal-lint exits,
// however it exits, the kernel closes the pipe and the pack (package sdk
// watches it) exits too. [Packs.Close] kills every pack's group
// explicitly.
package plugin

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/readfile"
	"github.com/r35157/journal-lint/rules"
)

// DefaultTimeout bounds start-up and each call to a pack when its
// configuration gives no timeout.
const DefaultTimeout = 30 * time.Second

// Spec says which pack to run and how.
type Spec struct {
	// Name is the namespace of the pack's codes; "" means the name the pack
	// describes itself with.
	Name string
	// Path is the executable's path, absolute or relative to Dir.
	Path string
	// Dir is the directory relative paths start from and the pack's working
	// directory: the configuration file's directory ("" for the current one).
	Dir string
	// SHA256 is the pinned digest of the executable: 64 lowercase hex digits.
	SHA256 string
	// Config is the pack's configuration, handed to it as JSON.
	Config map[string]any
	// Timeout bounds start-up and each call; 0 means [DefaultTimeout].
	Timeout time.Duration
}

// Label returns how messages name the pack before it has described itself:
// its configured name, else its path.
func (s Spec) Label() string {
	if s.Name != "" {
		return s.Name
	}
	return s.Path
}

// Executable returns the executable's path resolved against Dir.
func (s Spec) Executable() string {
	p := filepath.FromSlash(s.Path)
	if filepath.IsAbs(p) || s.Dir == "" {
		return p
	}
	return filepath.Join(s.Dir, p)
}

func (s Spec) timeout() time.Duration {
	if s.Timeout > 0 {
		return s.Timeout
	}
	return DefaultTimeout
}

// Info is what a pack says about itself, as the host accepted it.
type Info struct {
	// Name is the namespace of the pack's codes: the configured name, else
	// the pack's own.
	Name string
	// PackName is the name the pack describes itself with.
	PackName string
	// Version and SDKVersion are the pack's and its SDK's versions.
	Version, SDKVersion string
	// HostVersions is the pack's constraint on journal-lint versions; ""
	// means any.
	HostVersions string
	// Pure is the pack's declaration that its findings on a document
	// depend only on the document, the chain context it asked for and its
	// configuration (wire.Description.Pure): a check with the cache keeps
	// them with each artifact's record when every pack declares it.
	Pure bool
	// Path is the executable that ran; SHA256 its verified digest.
	Path, SHA256 string
	// Rules are the pack's rules in its documentation order.
	Rules []RuleInfo
}

// RuleInfo documents one rule of a pack.
type RuleInfo struct {
	// Code is "<pack>/<rule>", the code its diagnostics carry.
	Code string
	// Name is the rule's name within the pack.
	Name            string
	DefaultSeverity diag.Severity
	Summary, Doc    string
}

// Codes returns the codes of the pack's rules.
func (i Info) Codes() []string {
	out := make([]string, len(i.Rules))
	for j, r := range i.Rules {
		out[j] = r.Code
	}
	return out
}

// VerifyError is returned when a pack's executable cannot be read or does
// not match its pinned sha256. It is a configuration error: the pack never
// runs.
type VerifyError struct {
	// Pack is the pack's configured name or path; Path the executable.
	Pack, Path string
	// Want is the pinned digest; Got the file's, "" when it cannot be read.
	Want, Got string
	// Err is the read error, nil for a mismatch.
	Err error
}

// Error says which pack failed verification and what to do.
func (e *VerifyError) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("rule pack %s: cannot verify %s: %v", e.Pack, e.Path, e.Err)
	}
	return fmt.Sprintf("rule pack %s: checksum mismatch for %s: the configuration pins sha256 %s but the file has %s; "+
		"if you trust this build, update the sha256 (journal-lint plugins checksum %s)", e.Pack, e.Path, e.Want, e.Got, e.Path)
}

// Unwrap returns the read error, if any.
func (e *VerifyError) Unwrap() error { return e.Err }

// Checksum returns the sha256 of the rule pack at path as 64 lowercase
// hex digits, reading it as a pack's start does (stage): never through a
// symbolic link, only a regular file (a FIFO cannot block it) of at most
// readfile.MaxPack bytes.
func Checksum(path string) (string, error) {
	if err := refuseLink(path); err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	h := sha256.New()
	if err := readfile.Copy(path, packOptions, h); err != nil {
		return "", fmt.Errorf("%s: %w", path, packReadCause(err))
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// Error is a pack failure: the pack ran but misbehaved. [Failure] turns it
// into the plugin/failed diagnostic.
type Error struct {
	// Pack is the pack's name (or its configured label before Describe).
	Pack string
	// Err says what went wrong.
	Err error
	// Stderr is the tail of the pack's stderr (and of anything it wrote to
	// stdout after the handshake), possibly empty.
	Stderr string
}

// Error returns "rule pack NAME failed: ERR".
func (e *Error) Error() string { return fmt.Sprintf("rule pack %s failed: %v", e.Pack, e.Err) }

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Failure returns the one plugin/failed diagnostic for a pack failure. Its
// message names the pack, says what happened and quotes the most telling
// line of the pack's stderr (tellingLine) unless it says that already;
// Help holds the whole tail.
func Failure(e *Error) diag.Diagnostic {
	msg := e.Error()
	if line := tellingLine(e.Stderr); line != "" && !strings.Contains(msg, line) {
		msg += fmt.Sprintf("; stderr: %q", line)
	}
	d := diag.Diagnostic{Code: rules.PluginFailed, Severity: diag.Error, Message: msg}
	if e.Stderr != "" {
		// (A stack trace indents with tabs, which output shows escaped.)
		d.Help = "last lines of the pack's stderr:\n" + strings.ReplaceAll(e.Stderr, "\t", "    ")
	} else {
		d.Help = "the pack wrote nothing to stderr"
	}
	return d
}

// tellingLine picks the stderr line a message should quote: a panic or
// fatal error line, else the last line that is not part of a Go stack
// trace (a recovered panic's trace, whose last line names a frame of the
// RPC server, says nothing the error does not); "" when there is none.
func tellingLine(tail string) string {
	lines := strings.Split(tail, "\n")
	for _, l := range lines {
		s := strings.TrimSpace(l)
		if strings.HasPrefix(s, "panic: ") || strings.HasPrefix(s, "fatal error: ") {
			return clip(s, 200)
		}
	}
	for i := len(lines) - 1; i >= 0; i-- {
		if s := strings.TrimSpace(lines[i]); s != "" && !stackLine.MatchString(s) {
			return clip(s, 200)
		}
	}
	return ""
}

// stackLine matches the lines of a Go stack trace: "goroutine 7
// [running]:", a frame's function ("pkg.(*T).M(0xc000010000, ...)",
// "created by pkg.f in goroutine 1") and its place ("/path/file.go:12
// +0x1d").
var stackLine = regexp.MustCompile(`^(goroutine \d+ \[.*\]:|created by .*|\S+\(.*\)|\S+\.go:\d+( \+0x[0-9a-f]+)?)$`)

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && n < len(s) && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}
