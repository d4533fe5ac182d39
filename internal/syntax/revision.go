package syntax

// ParserRevision names what [Parse] makes of a text: its directives with
// their positions and decoded arguments, its validity and the model it
// builds (with journal/model and journal/valuetypes). A rule pack built
// with the SDK of the same revision parses the texts journal-lint sends it
// itself instead of receiving directives and model (Needs.parser in
// plugins/proto/rulepack/v1), so any change to what Parse returns for some
// text must come with a new revision; TestParserRevision in
// internal/plugin/protocol holds the revision to a digest of the wire form
// of Parse's output over a corpus of valid and invalid texts.
const ParserRevision = "journal-lint-syntax/1"
