import CLibWebSockets
import CMindPadShims
import Foundation

/// One HTTP request on a dynamic route, from headers to the last body byte.
final class HTTPTransaction {
    let wsi: OpaquePointer
    var request: HTTPRequest
    var response: HTTPResponse?
    var headersSent = false
    var bodyOffset = 0
    var tooLarge = false

    init(wsi: OpaquePointer, request: HTTPRequest) {
        self.wsi = wsi
        self.request = request
    }
}

extension WebServer {
    /// Bytes of body written per WRITEABLE callback.
    private static let bodyChunk = 16 * 1024

    func httpRequestStarted(_ wsi: OpaquePointer, session: UnsafeMutablePointer<UInt64>?,
                            path: UnsafeMutableRawPointer?, length: Int) -> Int32 {
        guard let session else { return -1 }
        let method: HTTPMethod
        let uriToken: lws_token_indexes
        if lws_hdr_total_length(wsi, WSI_TOKEN_GET_URI) > 0 {
            (method, uriToken) = (.get, WSI_TOKEN_GET_URI)
        } else if lws_hdr_total_length(wsi, WSI_TOKEN_POST_URI) > 0 {
            (method, uriToken) = (.post, WSI_TOKEN_POST_URI)
        } else if lws_hdr_total_length(wsi, WSI_TOKEN_HEAD_URI) > 0 {
            (method, uriToken) = (.head, WSI_TOKEN_HEAD_URI)
        } else if lws_hdr_total_length(wsi, WSI_TOKEN_OPTIONS_URI) > 0 {
            (method, uriToken) = (.options, WSI_TOKEN_OPTIONS_URI)
        } else if lws_hdr_total_length(wsi, WSI_TOKEN_PUT_URI) > 0 {
            (method, uriToken) = (.put, WSI_TOKEN_PUT_URI)
        } else if lws_hdr_total_length(wsi, WSI_TOKEN_DELETE_URI) > 0 {
            (method, uriToken) = (.delete, WSI_TOKEN_DELETE_URI)
        } else {
            return lws_return_http_status(wsi, UInt32(HTTP_STATUS_METHOD_NOT_ALLOWED.rawValue), nil)
        }
        let id = allocateID()
        session.pointee = id
        var headers: [String: String] = [:]
        if let v = header(wsi, WSI_TOKEN_HTTP_AUTHORIZATION) { headers["authorization"] = v }
        if let v = header(wsi, WSI_TOKEN_HTTP_CONTENT_TYPE) { headers["content-type"] = v }
        if let v = header(wsi, WSI_TOKEN_HTTP_ACCEPT_LANGUAGE) { headers["accept-language"] = v }
        let request = HTTPRequest(method: method, path: header(wsi, uriToken) ?? "/",
                                  query: queryArguments(wsi), headers: headers, peer: peerAddress(wsi))
        let transaction = HTTPTransaction(wsi: wsi, request: request)
        transactions[id] = transaction
        // A body follows for POST/PUT; everything else is complete now.
        if method == .post || method == .put {
            if let length = header(wsi, WSI_TOKEN_HTTP_CONTENT_LENGTH).flatMap(Int.init),
               length > options.maxBodyBytes {
                transaction.tooLarge = true
            }
            return 0
        }
        dispatch(transaction, id: id)
        return 0
    }

    func httpBody(_ wsi: OpaquePointer, session: UnsafeMutablePointer<UInt64>?,
                  bytes: UnsafeMutableRawPointer?, length: Int) -> Int32 {
        guard let id = session?.pointee, let transaction = transactions[id] else { return 0 }
        guard !transaction.tooLarge, let bytes else { return 0 }
        if transaction.request.body.count + length > options.maxBodyBytes {
            transaction.tooLarge = true
            transaction.request.body = []
            return 0
        }
        transaction.request.body.append(contentsOf: UnsafeRawBufferPointer(start: bytes, count: length))
        return 0
    }

    func httpBodyComplete(_ wsi: OpaquePointer, session: UnsafeMutablePointer<UInt64>?) -> Int32 {
        guard let id = session?.pointee, let transaction = transactions[id] else { return 0 }
        dispatch(transaction, id: id)
        return 0
    }

    private func dispatch(_ transaction: HTTPTransaction, id: UInt64) {
        if transaction.tooLarge {
            respond(id: id, .error(413, code: "body_too_large",
                                   message: "request bodies are limited to \(options.maxBodyBytes) bytes"))
            return
        }
        guard let delegate else {
            respond(id: id, .error(503, code: "starting", message: "server is starting"))
            return
        }
        let responder = HTTPResponder { [weak self] response in
            guard let self else { return }
            if self.isServiceThread {
                self.respond(id: id, response)
            } else {
                self.post { [weak self] in self?.respond(id: id, response) }
            }
        }
        delegate.webServer(self, handle: transaction.request, responder: responder)
    }

    /// Service thread: stores the answer and asks lws for a WRITEABLE.
    private func respond(id: UInt64, _ response: HTTPResponse) {
        guard let transaction = transactions[id], transaction.response == nil else { return }
        transaction.response = response
        lws_callback_on_writable(transaction.wsi)
    }

    func httpWritable(_ wsi: OpaquePointer, session: UnsafeMutablePointer<UInt64>?) -> Int32 {
        guard let id = session?.pointee, let transaction = transactions[id],
              let response = transaction.response else { return 0 }
        if !transaction.headersSent {
            transaction.headersSent = true
            let bodyLength = transaction.request.method == .head ? 0 : response.body.count
            var buffer = [UInt8](repeating: 0, count: pre + 4096)
            let ok = buffer.withUnsafeMutableBufferPointer { buf -> Bool in
                let start = buf.baseAddress! + pre
                let end = buf.baseAddress! + buf.count - 1
                var p: UnsafeMutablePointer<UInt8>? = start
                if lws_add_http_common_headers(wsi, UInt32(response.status), response.contentType,
                                               lws_filepos_t(bodyLength), &p, end) != 0 { return false }
                for (name, value) in response.headers {
                    let n = name.hasSuffix(":") ? name : name + ":"
                    if lws_add_http_header_by_name(wsi, n, value, Int32(value.utf8.count), &p, end) != 0 { return false }
                }
                return lws_finalize_write_http_header(wsi, start, &p, end) == 0
            }
            guard ok else { return -1 }
            if bodyLength == 0 { return finish(wsi, id: id) }
            lws_callback_on_writable(wsi)
            return 0
        }
        let remaining = response.body.count - transaction.bodyOffset
        let chunk = min(remaining, Self.bodyChunk)
        let last = chunk == remaining
        var buffer = [UInt8](repeating: 0, count: pre + chunk)
        buffer.replaceSubrange(pre..<(pre + chunk),
                               with: response.body[transaction.bodyOffset..<(transaction.bodyOffset + chunk)])
        let written = buffer.withUnsafeMutableBufferPointer { buf in
            lws_write(wsi, buf.baseAddress! + pre, chunk, last ? LWS_WRITE_HTTP_FINAL : LWS_WRITE_HTTP)
        }
        guard written >= 0 else { return -1 }
        transaction.bodyOffset += chunk
        if last { return finish(wsi, id: id) }
        lws_callback_on_writable(wsi)
        return 0
    }

    private func finish(_ wsi: OpaquePointer, id: UInt64) -> Int32 {
        transactions[id] = nil
        return lws_http_transaction_completed(wsi) != 0 ? -1 : 0
    }

    func httpClosed(session: UnsafeMutablePointer<UInt64>?) {
        guard let id = session?.pointee else { return }
        transactions[id] = nil
    }

    // MARK: Header access

    func header(_ wsi: OpaquePointer, _ token: lws_token_indexes) -> String? {
        let length = Int(lws_hdr_total_length(wsi, token))
        guard length > 0 else { return nil }
        var buffer = [CChar](repeating: 0, count: length + 1)
        guard lws_hdr_copy(wsi, &buffer, Int32(buffer.count), token) >= 0 else { return nil }
        return decodeCString(buffer)
    }

    private func queryArguments(_ wsi: OpaquePointer) -> [String: String] {
        var result: [String: String] = [:]
        var buffer = [CChar](repeating: 0, count: 1024)
        var index: Int32 = 0
        while lws_hdr_copy_fragment(wsi, &buffer, Int32(buffer.count), WSI_TOKEN_HTTP_URI_ARGS, index) >= 0 {
            index += 1
            let pair = decodeCString(buffer)
            guard !pair.isEmpty else { continue }
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0])
            if result[name] == nil { result[name] = parts.count > 1 ? String(parts[1]) : "" }
        }
        return result
    }

    func peerAddress(_ wsi: OpaquePointer) -> String {
        var buffer = [CChar](repeating: 0, count: 64)
        guard lws_get_peer_simple(wsi, &buffer, buffer.count) != nil else { return "" }
        return decodeCString(buffer)
    }
}

/// The text of a NUL-terminated C buffer.
func decodeCString(_ buffer: [CChar]) -> String {
    let end = buffer.firstIndex(of: 0) ?? buffer.count
    return String(decoding: buffer[..<end].map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
