package valuetypes

import (
	"errors"
	"strconv"
)

// Verdict is a release policy: allow, deprecated or deny ("Values" in
// docs/journal-format.md, used by POLICY; "Release blocks" in
// docs/journal-format.md gives allow as the default). The zero value
// VerdictInvalid is not a verdict and is never returned by ParseVerdict
// without an error.
type Verdict int

// The verdicts ("Values" in docs/journal-format.md).
const (
	// VerdictInvalid is the zero value: no verdict.
	VerdictInvalid Verdict = iota
	// Allow means the release may be used.
	Allow
	// Deprecated means the release may still be used but should be replaced.
	Deprecated
	// Deny means the release must not be used.
	Deny
)

// ParseVerdict parses s, which must be exactly "allow", "deprecated" or
// "deny" (case-sensitive, "Values" in docs/journal-format.md). It returns
// the Verdict, or
// VerdictInvalid and a *SyntaxError of Kind "verdict" with Offset 0.
func ParseVerdict(s string) (Verdict, error) {
	switch s {
	case "allow":
		return Allow, nil
	case "deprecated":
		return Deprecated, nil
	case "deny":
		return Deny, nil
	}
	reason := "must be allow, deprecated or deny"
	if s == "" {
		reason = "empty"
	}
	return VerdictInvalid, synErr(KindVerdict, s, reason, 0)
}

// String returns "allow", "deprecated" or "deny"; for VerdictInvalid it returns
// "invalid" and for any other value "Verdict(N)". Only the first three are
// accepted by ParseVerdict.
func (v Verdict) String() string {
	switch v {
	case Allow:
		return "allow"
	case Deprecated:
		return "deprecated"
	case Deny:
		return "deny"
	case VerdictInvalid:
		return "invalid"
	}
	return "Verdict(" + strconv.Itoa(int(v)) + ")"
}

// IsValid reports whether v is Allow, Deprecated or Deny.
func (v Verdict) IsValid() bool { return v == Allow || v == Deprecated || v == Deny }

// MarshalText implements encoding.TextMarshaler: the verdict word, or empty
// text for VerdictInvalid. It fails for a value outside the constants.
func (v Verdict) MarshalText() ([]byte, error) {
	if v == VerdictInvalid {
		return []byte{}, nil
	}
	if !v.IsValid() {
		return nil, errors.New("valuetypes: cannot marshal " + v.String())
	}
	return []byte(v.String()), nil
}

// UnmarshalText implements encoding.TextUnmarshaler: empty text gives
// VerdictInvalid, anything else is parsed with ParseVerdict. On error v is
// unchanged and the *SyntaxError is returned.
func (v *Verdict) UnmarshalText(text []byte) error {
	if len(text) == 0 {
		*v = VerdictInvalid
		return nil
	}
	p, err := ParseVerdict(string(text))
	if err != nil {
		return err
	}
	*v = p
	return nil
}
