package check

import (
	"testing"

	vt "github.com/r35157/journal-lint/journal/valuetypes"
)

// TestBuildTreeKeepsTheFirstLatestHead: of the heads of one coordinate
// the tree takes the one with the latest Journal version, and of equals
// the first in artifact order, whatever order the coordinates come in.
func TestBuildTreeKeepsTheFirstLatestHead(t *testing.T) {
	t.Parallel()
	head := func(c, version, releases string) treeHead {
		co, err := vt.ParseCoordinate(c)
		if err != nil {
			t.Fatal(err)
		}
		v, err := vt.ParseJournalVersion(version)
		if err != nil {
			t.Fatal(err)
		}
		return treeHead{coordinate: co, version: v, releases: releases}
	}
	tree := buildTree([][]treeHead{
		{head("org.example.b", "20260101T000000Z", "1.0.0\n")},
		{head("org.example.a", "20260101T000000Z", "1.0.0\n"), head("org.example.b", "20260201T000000Z", "2.0.0\n")},
		{head("org.example.b", "20260201T000000Z", "3.0.0\n")},
		{},
		{head("org.example.a", "20250101T000000Z", "0.1.0\n")},
	})
	for c, want := range map[string]string{"org.example.a": "+1.0.0\n", "org.example.b": "+2.0.0\n", "org.example.c": ""} {
		co, _ := vt.ParseCoordinate(c)
		if got := tree.View(co); got != want {
			t.Errorf("%s: view %q, want %q", c, got, want)
		}
	}
	if got := len(tree.Coordinates()); got != 2 {
		t.Errorf("%d coordinates, want 2", got)
	}
}
