import SDKSeams

/// SDKSeams' `HTTPHeaders`, reachable under this name from files that import FlowRecording but not
/// SDKSeams (the redactor's and the importer's header lists).
package typealias HTTPHeadersValue = HTTPHeaders
