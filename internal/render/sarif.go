package render

import (
	"fmt"
	"io"
	"net/url"
	"sort"
	"strings"

	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/outpath"
	"github.com/r35157/journal-lint/internal/safetext"
	"github.com/r35157/journal-lint/rules"
)

// SARIFSchemaURI is the "$schema" of the SARIF format: the OASIS SARIF 2.1.0
// schema (errata 01).
const SARIFSchemaURI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

// SARIFRootBaseID is the uriBaseId of every artifact location in the SARIF
// format: the base that output paths are relative to (package outpath: the
// top level of the git work tree, else the working directory), under the
// name GitHub code scanning and other SARIF tools use for the source root.
// run.originalUriBaseIds describes it without a uri, so that the log holds
// no machine path; code scanning resolves the relative URIs against the
// repository's top level.
const SARIFRootBaseID = "%SRCROOT%"

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool                     sarifTool                   `json:"tool"`
	Invocations              []sarifInvocation           `json:"invocations,omitempty"`
	VersionControlProvenance []sarifVersionControl       `json:"versionControlProvenance,omitempty"`
	OriginalURIBaseIDs       map[string]sarifArtifactLoc `json:"originalUriBaseIds,omitempty"`
	ColumnKind               string                      `json:"columnKind"`
	Results                  []sarifResult               `json:"results"`
}

// sarifVersionControl is a versionControlDetails object: the checked
// commit, and in its properties the commit a gated check compared with.
type sarifVersionControl struct {
	RepositoryURI string            `json:"repositoryUri"`
	RevisionID    string            `json:"revisionId,omitempty"`
	Properties    map[string]string `json:"properties,omitempty"`
}

// sarifInvocation is an invocation object; it is written only to carry a
// tool execution notification (results left out).
type sarifInvocation struct {
	ExecutionSuccessful        bool                `json:"executionSuccessful"`
	ToolExecutionNotifications []sarifNotification `json:"toolExecutionNotifications,omitempty"`
}

// sarifNotification is a notification object (SARIF 2.1.0 §3.58) about the
// run itself rather than about an artifact.
type sarifNotification struct {
	Descriptor *sarifDescriptorRef `json:"descriptor,omitempty"`
	Level      string              `json:"level"`
	Message    sarifMessage        `json:"message"`
	Properties map[string]int      `json:"properties,omitempty"`
}

// sarifDescriptorRef is a reportingDescriptorReference (§3.53) to one of
// tool.driver.notifications.
type sarifDescriptorRef struct {
	ID    string `json:"id"`
	Index int    `json:"index"`
}

// sarifNotificationDescriptor is a reportingDescriptor of a notification,
// with the descriptions and help GitHub code scanning requires of each.
type sarifNotificationDescriptor struct {
	ID               string           `json:"id"`
	ShortDescription sarifMultiformat `json:"shortDescription"`
	FullDescription  sarifMultiformat `json:"fullDescription"`
	Help             sarifMultiformat `json:"help"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name            string      `json:"name"`
	Version         string      `json:"version"`
	SemanticVersion string      `json:"semanticVersion"`
	InformationURI  string      `json:"informationUri,omitempty"`
	Rules           []sarifRule `json:"rules"`
	// Notifications describes the tool execution notifications of the
	// run, written only with one.
	Notifications []sarifNotificationDescriptor `json:"notifications,omitempty"`
}

type sarifRule struct {
	ID                   string               `json:"id"`
	Name                 string               `json:"name"`
	ShortDescription     *sarifMultiformat    `json:"shortDescription,omitempty"`
	FullDescription      *sarifMultiformat    `json:"fullDescription,omitempty"`
	Help                 *sarifMultiformat    `json:"help,omitempty"`
	HelpURI              string               `json:"helpUri,omitempty"`
	DefaultConfiguration sarifConfiguration   `json:"defaultConfiguration"`
	Properties           *sarifRuleProperties `json:"properties,omitempty"`
}

type sarifRuleProperties struct {
	Tags []string `json:"tags,omitempty"`
}

type sarifMultiformat struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown,omitempty"`
}

type sarifConfiguration struct {
	Level string `json:"level"`
}

type sarifMessage struct {
	Text string `json:"text"`
}

type sarifResult struct {
	RuleID              string            `json:"ruleId"`
	RuleIndex           int               `json:"ruleIndex"`
	Level               string            `json:"level"`
	Message             sarifMessage      `json:"message"`
	Locations           []sarifLocation   `json:"locations,omitempty"`
	RelatedLocations    []sarifLocation   `json:"relatedLocations,omitempty"`
	PartialFingerprints map[string]string `json:"partialFingerprints"`
}

type sarifLocation struct {
	ID               *int                   `json:"id,omitempty"`
	PhysicalLocation *sarifPhysicalLocation `json:"physicalLocation,omitempty"`
	Message          *sarifMessage          `json:"message,omitempty"`
}

type sarifPhysicalLocation struct {
	ArtifactLocation sarifArtifactLoc `json:"artifactLocation"`
	Region           *sarifRegion     `json:"region,omitempty"`
}

type sarifArtifactLoc struct {
	URI         string        `json:"uri,omitempty"`
	URIBaseID   string        `json:"uriBaseId,omitempty"`
	Description *sarifMessage `json:"description,omitempty"`
}

// sarifRegion uses byteOffset/byteLength rather than charOffset/charLength:
// SARIF counts "characters" in the run's columnKind, while our offsets are
// bytes, which SARIF supports directly.
type sarifRegion struct {
	StartLine   int  `json:"startLine"`
	StartColumn int  `json:"startColumn,omitempty"`
	EndLine     int  `json:"endLine,omitempty"`
	EndColumn   int  `json:"endColumn,omitempty"`
	ByteOffset  *int `json:"byteOffset,omitempty"`
	ByteLength  *int `json:"byteLength,omitempty"`
}

// sarifLevel maps a severity to a SARIF level: error, warning or note.
func sarifLevel(s diag.Severity) string {
	switch severity(s) {
	case diag.Warning:
		return "warning"
	case diag.Info:
		return "note"
	}
	return "error"
}

// ruleName turns a code such as "chain/non-increasing-version" into the
// identifier-like name "ChainNonIncreasingVersion".
func ruleName(code string) string {
	var b strings.Builder
	up := true
	for _, r := range code {
		if r == '/' || r == '-' || r == '_' || r == '.' || r == ' ' {
			up = true
			continue
		}
		if up {
			b.WriteString(strings.ToUpper(string(r)))
			up = false
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// relURI returns the output path p as a relative URI reference with its
// special characters escaped; a directory gets a final slash.
func relURI(p string, dir bool) string {
	if dir && !strings.HasSuffix(p, "/") {
		p += "/"
	}
	return (&url.URL{Path: p}).String()
}

// sarifRegionOf returns the region of rg, or nil for no range. Columns below
// 1 (unknown) are left out; so is an end that is unknown or before the start.
func sarifRegionOf(rg diag.Range) *sarifRegion {
	if !rg.IsValid() {
		return nil
	}
	reg := &sarifRegion{StartLine: rg.Start.Line}
	if rg.Start.Column >= 1 {
		reg.StartColumn = rg.Start.Column
	}
	s, e := rg.Start, rg.End
	endOK := e.IsValid() && (e.Line > s.Line || (e.Line == s.Line && e.Column >= s.Column))
	if endOK {
		reg.EndLine = e.Line
		if e.Column >= 1 && reg.StartColumn > 0 {
			reg.EndColumn = e.Column
		}
	}
	if s.Offset >= 0 {
		off := s.Offset
		reg.ByteOffset = &off
		if endOK && e.Offset >= s.Offset {
			n := e.Offset - s.Offset
			reg.ByteLength = &n
		}
	}
	return reg
}

// sarifPhysical returns the location of the root-relative path and range
// rg under the output prefix of opts. A diagnostic about the root itself
// (no path) points at the root directory, with the whole-file region
// [diag.FileStart]: GitHub code scanning rejects a whole upload when one
// result has no location, and wants region.startLine in each.
func sarifPhysical(path string, rg diag.Range, opts Options) *sarifPhysicalLocation {
	if path == "" {
		return &sarifPhysicalLocation{
			ArtifactLocation: sarifArtifactLoc{URI: relURI(outpath.Join(opts.PathPrefix, ""), true), URIBaseID: SARIFRootBaseID},
			Region:           sarifRegionOf(diag.FileStart),
		}
	}
	return &sarifPhysicalLocation{
		ArtifactLocation: sarifArtifactLoc{URI: relURI(opts.displayPath(path), false), URIBaseID: SARIFRootBaseID},
		Region:           sarifRegionOf(rg),
	}
}

// SARIFResultsLeftOut is the id of the tool execution notification of a
// SARIF run that holds fewer results than diagnostics, because GitHub code
// scanning rejects a run with more than [SARIFResultLimit] results. Its
// properties count what was left out: "errors", "warnings" and "notes".
const SARIFResultsLeftOut = "journal-lint/results-left-out"

func writeSARIF(w io.Writer, r *Report, opts Options) error {
	return writeSARIFWithin(w, r, opts, SARIFResultLimit)
}

// writeSARIFWithin writes the SARIF log of r with at most maxResults
// results: errors, then warnings, then notes are kept, each in the order of
// r.Diagnostics, and the results keep that order. The rest are counted in a
// notification of the run's invocation.
func writeSARIFWithin(w io.Writer, r *Report, opts Options, maxResults int) error {
	// Rules: every code reported, sorted, so ruleIndex is stable.
	var codes []string
	firstSeverity := map[string]diag.Severity{}
	for _, d := range r.Diagnostics {
		if _, ok := firstSeverity[d.Code]; !ok {
			firstSeverity[d.Code] = d.Severity
			codes = append(codes, d.Code)
		}
	}
	sort.Strings(codes)
	index := make(map[string]int, len(codes))
	rules := make([]sarifRule, 0, len(codes))
	for i, code := range codes {
		index[code] = i
		rules = append(rules, newSARIFRule(r, code, firstSeverity[code]))
	}

	fps := Fingerprints(*r)
	keep := make([]bool, len(r.Diagnostics))
	var left Tally
	for k, i := range SeverityOrder(len(r.Diagnostics), func(i int) diag.Severity { return r.Diagnostics[i].Severity }) {
		if k < maxResults {
			keep[i] = true
		} else {
			left.Add(r.Diagnostics[i].Severity)
		}
	}
	kept := make([]int, 0, min(len(r.Diagnostics), maxResults))
	for i := range r.Diagnostics {
		if keep[i] {
			kept = append(kept, i)
		}
	}
	result := func(k int) any {
		i := kept[k]
		d := r.Diagnostics[i]
		res := sarifResult{
			RuleID:              d.Code,
			RuleIndex:           index[d.Code],
			Level:               sarifLevel(d.Severity),
			Message:             sarifMessage{Text: nonEmpty(d.Message, d.Code)},
			PartialFingerprints: map[string]string{SARIFFingerprintKey: fps[i]},
		}
		if pl := sarifPhysical(d.Path, d.Range, opts); pl != nil {
			res.Locations = []sarifLocation{{PhysicalLocation: pl}}
		}
		for j, rel := range d.Related {
			id := j + 1
			loc := sarifLocation{ID: &id, PhysicalLocation: sarifPhysical(rel.Path, rel.Range, opts)}
			if rel.Message != "" {
				loc.Message = &sarifMessage{Text: rel.Message}
			}
			res.RelatedLocations = append(res.RelatedLocations, loc)
		}
		return res
	}

	run := sarifRun{
		Tool: sarifTool{Driver: sarifDriver{
			Name:            nonEmpty(r.Tool.Name, "journal-lint"),
			Version:         nonEmpty(r.Tool.Version, "0.0.0"),
			SemanticVersion: nonEmpty(r.Tool.Version, "0.0.0"),
			InformationURI:  r.Tool.InformationURI,
			Rules:           rules,
		}},
		ColumnKind: "unicodeCodePoints",
		Results:    []sarifResult{},
	}
	if left.Total() > 0 {
		run.Tool.Driver.Notifications = []sarifNotificationDescriptor{{ID: SARIFResultsLeftOut,
			ShortDescription: sarifMultiformat{Text: "Results were left out of the run"},
			FullDescription:  sarifMultiformat{Text: fmt.Sprintf("The run holds at most %d results, since GitHub code scanning rejects a run with more: errors are kept first, then warnings, then notes. The notification's properties count the results left out by level.", SARIFResultLimit)},
			Help:             sarifMultiformat{Text: "journal-lint check --format json (or text) lists every finding; the results kept here are the most severe."}}}
		run.Invocations = []sarifInvocation{{ExecutionSuccessful: true, ToolExecutionNotifications: []sarifNotification{{
			Descriptor: &sarifDescriptorRef{ID: SARIFResultsLeftOut},
			Level:      "warning",
			Message: sarifMessage{Text: fmt.Sprintf("%s of %d left out (%s, %s, %s): GitHub code scanning rejects a run with more than %d results. --format json lists every finding.",
				plural(left.Total(), "result", "results"), len(r.Diagnostics),
				plural(left.Errors, "error", "errors"), plural(left.Warnings, "warning", "warnings"), plural(left.Infos, "note", "notes"), maxResults)},
			Properties: map[string]int{"errors": left.Errors, "warnings": left.Warnings, "notes": left.Infos},
		}}}}
	}
	run.OriginalURIBaseIDs = map[string]sarifArtifactLoc{SARIFRootBaseID: {
		Description: &sarifMessage{Text: "The top level of the git work tree that holds the Journal root (outside a work tree: the directory journal-lint ran in)."}}}
	if b := r.Baseline; b != nil && b.RepositoryURI != "" {
		run.VersionControlProvenance = []sarifVersionControl{{RepositoryURI: b.RepositoryURI, RevisionID: b.Head,
			Properties: map[string]string{"journalLint/against": b.Rev, "journalLint/comparedWith": b.Commit, "journalLint/comparison": b.Line()}}}
	}
	log := sarifLog{Schema: SARIFSchemaURI, Version: "2.1.0", Runs: []sarifRun{run}}
	// The results are encoded one at a time (depth 3: a member of the run,
	// an element of the log's runs), never held whole.
	return safetext.WriteJSONStream(w, log, "results", 3, len(kept), result)
}

// newSARIFRule describes the rule of code, from r.Rule when it knows it.
// The default level of an unknown rule is that of its first result, sev.
func newSARIFRule(r *Report, code string, sev diag.Severity) sarifRule {
	ri, known := r.rule(code)
	if known && ri.DefaultSeverity != diag.SeverityInvalid {
		sev = ri.DefaultSeverity
	}
	rule := sarifRule{
		ID:                   code,
		Name:                 ruleName(code),
		HelpURI:              ri.HelpURI,
		DefaultConfiguration: sarifConfiguration{Level: sarifLevel(sev)},
	}
	if ri.Summary != "" {
		rule.ShortDescription = &sarifMultiformat{Text: ri.Summary}
	}
	if full := nonEmpty(ri.Doc, ri.Summary); full != "" {
		rule.FullDescription = &sarifMultiformat{Text: full}
	}
	if ri.Doc != "" {
		rule.Help = &sarifMultiformat{Text: ri.Doc, Markdown: ri.Doc}
	} else if ri.Summary != "" {
		rule.Help = &sarifMultiformat{Text: ri.Summary}
	}
	if cat := rules.Category(code); cat != "" {
		rule.Properties = &sarifRuleProperties{Tags: []string{cat}}
	}
	return rule
}

func nonEmpty(s, fallback string) string {
	if s != "" {
		return s
	}
	return fallback
}
