module github.com/r35157/journal-lint

go 1.26

require (
	github.com/Masterminds/semver/v3 v3.5.0 // indirect
	github.com/github/go-spdx/v2 v2.8.0 // indirect
	github.com/google/go-cmp v0.7.0 // indirect
)
