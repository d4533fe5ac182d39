package valuetypes

import "testing"

func TestParseVerdict(t *testing.T) {
	t.Parallel()
	for s, want := range map[string]Verdict{"allow": Allow, "deprecated": Deprecated, "deny": Deny} {
		v, err := ParseVerdict(s)
		if err != nil || v != want {
			t.Errorf("ParseVerdict(%q) = %v, %v", s, v, err)
		}
		roundTrip(t, s, v, ParseVerdict)
		if !v.IsValid() {
			t.Errorf("%v not valid", v)
		}
	}
	for _, s := range []string{"", "Allow", "ALLOW", "allow ", "invalid", "denied"} {
		v, err := ParseVerdict(s)
		checkBad(t, KindVerdict, badCase{s, 0}, err)
		if v != VerdictInvalid {
			t.Errorf("ParseVerdict(%q) = %v", s, v)
		}
	}
	if VerdictInvalid.String() != "invalid" || Verdict(7).String() != "Verdict(7)" || VerdictInvalid.IsValid() {
		t.Error("String of non-verdicts")
	}
	var v Verdict
	if err := v.UnmarshalText([]byte("deny")); err != nil || v != Deny {
		t.Error("UnmarshalText")
	}
	if _, err := Verdict(9).MarshalText(); err == nil {
		t.Error("MarshalText of Verdict(9) should fail")
	}
}
