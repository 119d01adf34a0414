// swift-tools-version:6.0
// The peer server of `Scripts/http_floor.py --peer`: a bare SwiftNIO HTTP/1.1 server, the same NIO
// as the reference backend's, that answers every request with one fixed JSON body. What a request
// costs it is the least a server built on NIO's HTTP/1.1 codec spends, to set the backend's cost beside.
import PackageDescription

let package = Package(
    name: "nio-peer",
    dependencies: [.package(url: "https://github.com/apple/swift-nio", from: "2.101.2")],
    targets: [
        .executableTarget(name: "nio-peer", dependencies: [
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
        ]),
    ]
)
