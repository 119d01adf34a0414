// Cassette tests in a user's own test suite (docs/testing.md, "Cassette tests in your own suite"):
//
// * `CassetteTrait` (`@Test(.cassette("login"))`) and `withCassette(_:...)` (XCTest, or several
//   cassettes in one test) run a test against its cassette next to the test file;
// * `CassetteSession` hands the test the SDK's seams (transport, random source, clock, observer)
//   and the backend URL, recording or replaying;
// * `CassetteRecordMode` (`never`, `missing`, `all`) says when to record, `CassetteBackend` what
//   against (the embedded reference backend by default, started by WorkbenchTestingEmbedded
//   through `EmbeddedBackendStarter` when the test target links that product);
// * `CassetteRunner` does the work with the workbench's recorder and replayer.
