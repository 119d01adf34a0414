import CommonFormats
import SDKSeams

package typealias HTTPHeadersValue = HTTPHeaders

/// URL splitting lives in CommonFormats (`CommonFormats.URLText`); this name keeps it reachable
/// from the files that import FlowRecording but not yet CommonFormats (the scenario runner's web
/// steps and the CLI's proxy). Nothing is defined here.
package typealias URLText = CommonFormats.URLText
