import Foundation

/// The web client's files under one folder, served for GET and HEAD with an
/// ETag and a short revalidated cache (as the libwebsockets mount did).
/// Nothing outside the folder is reachable: hidden names, `..` and symbolic
/// links leading out are not found.
public struct StaticFiles: Sendable {
    public let root: String
    /// Seconds a browser may reuse a file before asking again.
    public var maxAge = 60

    public init?(root: String?, clientPages: Set<String> = []) {
        guard let root, let resolved = realpath(root, nil) else { return nil }
        self.clientPages = clientPages
        self.root = String(cString: resolved)
        free(resolved)
    }

    /// The client's own pages: `/<page>/<id>` (a race's replay,
    /// `/replay/k3v9q2m7x1cd`) is `index.html`, and the client routes on
    /// `location.pathname`. Any other path that is not a file stays 404.
    public var clientPages: Set<String> = []

    /// What the id of a client page may look like: `[A-Za-z0-9_-]{1,64}`.
    public static func isPageID(_ text: String) -> Bool {
        let bytes = text.utf8
        return (1...64).contains(bytes.count) && bytes.allSatisfy { b in
            (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F || b == 0x2D
        }
    }

    /// The answer for `segments`, or nil when no such file or page exists.
    public func response(for request: HTTPRequest) -> HTTPResponse? {
        let segments = request.pathSegments
        let page = segments.count == 2 && clientPages.contains(segments[0]) && Self.isPageID(segments[1])
        guard let (file, info) = resolve(segments) ?? (page ? resolve(["index.html"]) : nil) else { return nil }
        guard request.method == .get else { return .methodNotAllowed(allow: [.get]) }
        // The tag comes from the file's size and time, so a revalidation
        // (304) reads nothing.
        let etag = "\"\(String(info.st_size, radix: 16))-\(String(info.st_mtim.tv_sec, radix: 16))\""
        let cache = "must-revalidate, private, max-age=\(maxAge)"
        if let wanted = request.headers["if-none-match"], Self.matches(wanted, etag) {
            return HTTPResponse(status: 304, contentType: "", headers: [("etag", etag), ("cache-control", cache)], body: [])
        }
        guard let data = FileManager.default.contents(atPath: file) else { return nil }
        return HTTPResponse(status: 200, contentType: Self.contentType(of: file),
                            headers: [("etag", etag), ("cache-control", cache)], body: Array(data))
    }

    /// The real path and status of a regular file inside the root, or nil.
    private func resolve(_ segments: [String]) -> (String, stat)? {
        guard segments.allSatisfy({ !$0.hasPrefix(".") && !$0.contains("/") && !$0.contains("\0") }) else { return nil }
        var path = ([root] + segments).joined(separator: "/")
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        if (info.st_mode & S_IFMT) == S_IFDIR { path += "/index.html" }
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        let real = String(cString: resolved)
        guard real.hasPrefix(root + "/"), stat(real, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return (real, info)
    }

    /// `If-None-Match`: `*` or a list of (possibly weak) tags (RFC 9110 §13.1.2).
    public static func matches(_ header: String, _ etag: String) -> Bool {
        header.split(separator: ",").contains { candidate in
            var tag = candidate.trimmingCharacters(in: .whitespaces)
            if tag.hasPrefix("W/") { tag.removeFirst(2) }
            return tag == "*" || tag == etag
        }
    }

    public static func contentType(of path: String) -> String {
        switch (path as NSString).pathExtension.lowercased() {
        case "html", "htm": "text/html; charset=utf-8"
        case "js", "mjs": "text/javascript; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "json", "map": "application/json"
        case "svg": "image/svg+xml"
        case "png": "image/png"
        case "jpg", "jpeg": "image/jpeg"
        case "ico": "image/x-icon"
        case "webmanifest": "application/manifest+json"
        case "woff2": "font/woff2"
        case "txt": "text/plain; charset=utf-8"
        default: "application/octet-stream"
        }
    }
}
