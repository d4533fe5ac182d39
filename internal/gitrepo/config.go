package gitrepo

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"sync"
)

// configList holds the repository's configuration as one `git config -z
// --list` read it: the records "key\nvalue\x00" ("key\x00" for a key
// without a value), in the order git reads its files, keys in git's
// canonical form (section and variable lowercase). A command's questions
// about the configuration ([Repo.Config], [Repo.RemoteURI], the attribute
// sources) cost one git process instead of one each. A copy of a Repo
// shares it.
type configList struct {
	mu      sync.Mutex
	records []string
	read    bool
}

// configRecords returns the records of the configuration, read on the
// first call.
func (r *Repo) configRecords(ctx context.Context) ([]string, error) {
	c := r.config
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.read {
		return c.records, nil
	}
	out, err := r.output(ctx, "", nil, "config", "-z", "--list")
	var ce *CommandError
	switch {
	case errors.As(err, &ce) && ce.exitCode() == 1: // no configuration at all
		out = nil
	case err != nil:
		return nil, err
	}
	c.records = splitNUL(out)
	c.read = true
	return c.records, nil
}

// configKey returns the key of the record rec and whether it has a value,
// with the value.
func configKey(rec string) (key, value string, hasValue bool) {
	return strings.Cut(rec, "\n")
}

// canonicalKey returns name as git lists it: the section and the variable
// name lowercase, a subsection ("remote.Origin.url") as it is.
func canonicalKey(name string) string {
	first, last := strings.Index(name, "."), strings.LastIndex(name, ".")
	if first < 0 {
		return strings.ToLower(name)
	}
	return strings.ToLower(name[:first]) + name[first:last] + strings.ToLower(name[last:])
}

// Config returns the value of the configuration variable name as git
// reads it ("git config --get": the last value set; the section and the
// variable name in any case, a subsection as it is written), "" when it
// is not set or has no value. The configuration is the one the Repo read
// at its first question (see [Open]).
func (r *Repo) Config(ctx context.Context, name string) (string, error) {
	value, _, _, err := r.lastSet(ctx, name)
	return value, err
}

// lastSet returns the last value set for the configuration variable name
// (as for [Repo.Config]), whether that record has a value, and whether
// name is set at all.
func (r *Repo) lastSet(ctx context.Context, name string) (value string, hasValue, set bool, err error) {
	recs, err := r.configRecords(ctx)
	if err != nil {
		return "", false, false, err
	}
	want := canonicalKey(name)
	for _, rec := range recs {
		if k, v, has := configKey(rec); k == want {
			value, hasValue, set = v, has, true
		}
	}
	return value, hasValue, set, nil
}

// ConfigBool returns the boolean configuration variable name as git reads
// it ("git config --type=bool --get": the last value set), or def when it
// is not set. A key without a value is true; "true", "yes", "on" and a
// non-zero integer are true, and "false", "no", "off", "0" and the empty
// value false, in any case. A value git would refuse as no boolean gives
// def too: git fails on it, so nothing it decides depends on it.
func (r *Repo) ConfigBool(ctx context.Context, name string, def bool) (bool, error) {
	v, hasValue, set, err := r.lastSet(ctx, name)
	switch b, ok := parseBool(v); {
	case err != nil || !set:
		return def, err
	case !hasValue:
		return true, nil
	case ok:
		return b, nil
	}
	return def, nil
}

// parseBool parses a configuration value as git parses a boolean, and
// reports whether it is one: a word, or an integer with an optional unit
// (k, m or g, which do not change whether it is 0).
func parseBool(v string) (b, ok bool) {
	switch strings.ToLower(v) {
	case "true", "yes", "on":
		return true, true
	case "false", "no", "off", "":
		return false, true
	}
	if n := len(v); n > 1 && strings.ContainsRune("kKmMgG", rune(v[n-1])) {
		v = v[:n-1]
	}
	n, err := strconv.ParseInt(v, 0, 64)
	return n != 0, err == nil
}
