package wire

import (
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	pb "github.com/r35157/journal-lint/plugins/proto/rulepack/v1"
)

// TestFieldNumbers holds every constant of fields.go to the generated
// descriptor of its message and field, and requires a constant for every
// field of those messages, so that the hand-written codecs cannot drift
// from rulepack.proto in either direction.
func TestFieldNumbers(t *testing.T) {
	named := []struct {
		msg    proto.Message
		fields map[protoreflect.Name]protowire.Number
	}{
		{&pb.CheckRequest{}, map[protoreflect.Name]protowire.Number{"config_json": CheckRequestConfigJSON, "documents": CheckRequestDocuments,
			"parse_text": CheckRequestParseText}},
		{&pb.Document{}, map[protoreflect.Name]protowire.Number{"path": DocumentPath, "text": DocumentText, "digest": DocumentDigest,
			"directives": DocumentDirectives, "revision": DocumentRevision, "chain": DocumentChain}},
		{&pb.Directives{}, map[protoreflect.Name]protowire.Number{"arg_counts": DirectivesArgCounts, "spans": DirectivesSpans,
			"quoted": DirectivesQuoted, "decoded": DirectivesDecoded}},
		{&pb.Revision{}, map[protoreflect.Name]protowire.Number{"coordinate": RevisionCoordinate, "journal_version": RevisionJournalVersion,
			"predecessor": RevisionPredecessor, "description": RevisionDescription, "info": RevisionInfo, "policy": RevisionPolicy, "releases": RevisionReleases}},
		{&pb.Policy{}, map[protoreflect.Name]protowire.Number{"verdict": PolicyVerdict, "reason": PolicyReason}},
		{&pb.Release{}, map[protoreflect.Name]protowire.Number{"version": ReleaseVersion, "license": ReleaseLicense, "contents": ReleaseContents,
			"description": ReleaseDescription, "published": ReleasePublished, "policy": ReleasePolicy, "depends": ReleaseDepends,
			"excludes": ReleaseExcludes, "prefers": ReleasePrefers}},
		{&pb.Content{}, map[protoreflect.Name]protowire.Number{"name": ContentName, "digest": ContentDigest}},
		{&pb.Dependency{}, map[protoreflect.Name]protowire.Number{"coordinate": DependencyCoordinate, "constraint": DependencyConstraint, "description": DependencyDescription}},
		{&pb.Exclusion{}, map[protoreflect.Name]protowire.Number{"coordinate": ExclusionCoordinate, "description": ExclusionDescription}},
		{&pb.Preference{}, map[protoreflect.Name]protowire.Number{"coordinate": PreferenceCoordinate, "version": PreferenceVersion, "description": PreferenceDescription}},
		{&pb.ChainContext{}, map[protoreflect.Name]protowire.Number{"coordinate": ChainContextCoordinate, "accepted": ChainContextAccepted, "revisions": ChainContextRevisions}},
		{&pb.ChainEntry{}, map[protoreflect.Name]protowire.Number{"path": ChainEntryPath, "journal_version": ChainEntryJournalVersion, "digest": ChainEntryDigest}},
	}
	for _, m := range named {
		desc := m.msg.ProtoReflect().Descriptor()
		fields := desc.Fields()
		if fields.Len() != len(m.fields) {
			t.Errorf("%s has %d fields, fields.go names %d", desc.FullName(), fields.Len(), len(m.fields))
		}
		for name, num := range m.fields {
			f := fields.ByName(name)
			if f == nil {
				t.Errorf("%s has no field %s", desc.FullName(), name)
				continue
			}
			if f.Number() != num {
				t.Errorf("%s.%s is field %d, fields.go says %d", desc.FullName(), name, f.Number(), num)
			}
		}
	}
}
