// Package protocol turns what journal-lint parsed of a Journal file into
// what the rule-pack wire encodes ([wire.Document]): the one place the
// host's parsed documents meet the protocol. Package plugin encodes the
// documents it streams to the packs with it, and the SDK's test harness
// (plugins/sdk/sdktest) reads its inputs with it, so a pack under test gets
// exactly what journal-lint would send.
package protocol
