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
		{&pb.CheckRequest{}, map[protoreflect.Name]protowire.Number{"config_json": checkRequestConfigJSON, "documents": checkRequestDocuments,
			"parse_text": checkRequestParseText}},
		{&pb.Document{}, map[protoreflect.Name]protowire.Number{"path": documentPath, "text": documentText, "digest": documentDigest,
			"directives": documentDirectives, "revision": documentRevision, "chain": documentChain}},
		{&pb.Directives{}, map[protoreflect.Name]protowire.Number{"arg_counts": directivesArgCounts, "spans": directivesSpans,
			"quoted": directivesQuoted, "decoded": directivesDecoded}},
		{&pb.Revision{}, map[protoreflect.Name]protowire.Number{"coordinate": revisionCoordinate, "journal_version": revisionJournalVersion,
			"predecessor": revisionPredecessor, "description": revisionDescription, "info": revisionInfo, "policy": revisionPolicy, "releases": revisionReleases}},
		{&pb.Policy{}, map[protoreflect.Name]protowire.Number{"verdict": policyVerdict, "reason": policyReason}},
		{&pb.Release{}, map[protoreflect.Name]protowire.Number{"version": releaseVersion, "license": releaseLicense, "contents": releaseContents,
			"description": releaseDescription, "published": releasePublished, "policy": releasePolicy, "depends": releaseDepends,
			"excludes": releaseExcludes, "prefers": releasePrefers}},
		{&pb.Content{}, map[protoreflect.Name]protowire.Number{"name": contentName, "digest": contentDigest}},
		{&pb.Dependency{}, map[protoreflect.Name]protowire.Number{"coordinate": dependencyCoordinate, "constraint": dependencyConstraint, "description": dependencyDescription}},
		{&pb.Exclusion{}, map[protoreflect.Name]protowire.Number{"coordinate": exclusionCoordinate, "description": exclusionDescription}},
		{&pb.Preference{}, map[protoreflect.Name]protowire.Number{"coordinate": preferenceCoordinate, "version": preferenceVersion, "description": preferenceDescription}},
		{&pb.ChainContext{}, map[protoreflect.Name]protowire.Number{"coordinate": chainContextCoordinate, "accepted": chainContextAccepted, "revisions": chainContextRevisions}},
		{&pb.ChainEntry{}, map[protoreflect.Name]protowire.Number{"path": chainEntryPath, "journal_version": chainEntryJournalVersion, "digest": chainEntryDigest}},
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
