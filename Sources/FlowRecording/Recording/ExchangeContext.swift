/// The request context that the current task's HTTP exchanges carry: the key a test harness gave
/// each request besides its method and URL.
///
/// The Milagro SDK core's harness (`tests/common/test_context.cpp`, `test_mpin_sdk.cpp`) names every
/// request `<call arguments>@<test><suffix>`, and its recorder writes an exchange only the first time
/// its `method url context` key comes (`tests/common/http_recorded_data.cpp`); its player answers
/// by that key. A scenario step with a `context` runs with `current` bound to it: a
/// `RecordingTransport` stamps the step's exchanges with it, and a `Replayer` in mode `context`
/// looks the step's requests up by it. Outside such a step it is nil.
package enum ExchangeContext {
    @TaskLocal package static var current: String?
}
