package rules

import (
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"sync"
	"time"
)

// OptionKind is the type of an option's value. The zero value is invalid.
type OptionKind int

// The option kinds and the text each accepts.
const (
	// StringOption accepts any text.
	StringOption OptionKind = iota + 1
	// DurationOption accepts a non-negative Go duration ("24h", "90m", "0s").
	DurationOption
	// IntOption accepts a decimal integer.
	IntOption
	// BoolOption accepts "true" or "false".
	BoolOption
)

// String returns "string", "duration", "int", "bool" or "invalid".
func (k OptionKind) String() string {
	switch k {
	case StringOption:
		return "string"
	case DurationOption:
		return "duration"
	case IntOption:
		return "int"
	case BoolOption:
		return "bool"
	}
	return "invalid"
}

// parse converts text to the Go value of kind k: string, time.Duration,
// int or bool.
func (k OptionKind) parse(text string) (any, error) {
	switch k {
	case StringOption:
		return text, nil
	case DurationOption:
		d, err := time.ParseDuration(text)
		if err != nil {
			return nil, fmt.Errorf("%q is not a duration such as 24h or 90m", text)
		}
		if d < 0 {
			return nil, fmt.Errorf("duration %s is negative", text)
		}
		return d, nil
	case IntOption:
		n, err := strconv.Atoi(text)
		if err != nil {
			return nil, fmt.Errorf("%q is not an integer", text)
		}
		return n, nil
	case BoolOption:
		b, err := strconv.ParseBool(text)
		if err != nil || (text != "true" && text != "false") {
			return nil, fmt.Errorf("%q is not true or false", text)
		}
		return b, nil
	}
	return nil, fmt.Errorf("invalid option kind %d", k)
}

// Option is the spec of one rule option.
type Option struct {
	// Name is the option's key in configuration: lowercase kebab-case.
	Name string
	// Kind is the type of its value.
	Kind OptionKind
	// Default is the value's text when configuration does not set it; it
	// must parse as Kind.
	Default string
	// Summary is one line saying what the option changes.
	Summary string
}

// optionNamePattern is the form of an option name, lowercase kebab-case;
// compiled on first use.
var optionNamePattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z][a-z0-9]*(-[a-z0-9]+)*$`) })

// validateOptions checks option specs: names well-formed and unique, kinds
// valid, summaries present, defaults that parse.
func validateOptions(opts []Option) error {
	var errs []error
	seen := make(map[string]bool, len(opts))
	for _, o := range opts {
		if !optionNamePattern().MatchString(o.Name) {
			errs = append(errs, fmt.Errorf("option name %q is not lowercase kebab-case", o.Name))
		}
		if seen[o.Name] {
			errs = append(errs, fmt.Errorf("duplicate option %q", o.Name))
		}
		seen[o.Name] = true
		if o.Summary == "" {
			errs = append(errs, fmt.Errorf("option %q has no summary", o.Name))
		}
		if _, err := o.Kind.parse(o.Default); err != nil {
			errs = append(errs, fmt.Errorf("option %q: default: %w", o.Name, err))
		}
	}
	return errors.Join(errs...)
}

// Options holds the parsed option values of one rule. The zero value holds
// none; its getters then return zero values.
type Options struct {
	values map[string]any
}

// ParseOptions returns r's options with raw (option name → text) applied
// over the defaults. It fails on an option r does not have or a value that
// does not parse as the option's kind.
func (r Rule) ParseOptions(raw map[string]string) (Options, error) {
	values := make(map[string]any, len(r.Options))
	specs := make(map[string]Option, len(r.Options))
	for _, o := range r.Options {
		specs[o.Name] = o
		v, err := o.Kind.parse(o.Default)
		if err != nil {
			return Options{}, fmt.Errorf("option %s: default: %w", o.Name, err)
		}
		values[o.Name] = v
	}
	var errs []error
	for _, name := range slices.Sorted(maps.Keys(raw)) {
		text := raw[name]
		o, ok := specs[name]
		if !ok {
			errs = append(errs, fmt.Errorf("unknown option %q", name))
			continue
		}
		v, err := o.Kind.parse(text)
		if err != nil {
			errs = append(errs, fmt.Errorf("option %s: %w", name, err))
			continue
		}
		values[name] = v
	}
	if err := errors.Join(errs...); err != nil {
		return Options{}, err
	}
	return Options{values: values}, nil
}

// Duration returns the value of the duration option name, or 0 when there
// is none.
func (o Options) Duration(name string) time.Duration {
	d, _ := o.values[name].(time.Duration)
	return d
}

// Int returns the value of the int option name, or 0 when there is none.
func (o Options) Int(name string) int {
	n, _ := o.values[name].(int)
	return n
}

// Bool returns the value of the bool option name, or false when there is none.
func (o Options) Bool(name string) bool {
	b, _ := o.values[name].(bool)
	return b
}

// Text returns the value of the string option name, or "" when there is none.
func (o Options) Text(name string) string {
	s, _ := o.values[name].(string)
	return s
}
