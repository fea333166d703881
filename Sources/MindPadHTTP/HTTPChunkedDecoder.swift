/// Reads a `Transfer-Encoding: chunked` body (RFC 9112 §7.1) as its bytes
/// arrive: chunk sizes in hex, optional extensions (ignored), the data, and
/// trailer fields (checked, then dropped: no route reads them).
public struct HTTPChunkedDecoder: Sendable {
    private enum State: Sendable {
        case size
        case data(remaining: Int)
        case dataEnd
        case trailers(bytes: Int)
        case done
    }

    private var state = State.size
    private(set) var body: [UInt8] = []
    public let maxBody: Int
    /// Longest chunk-size line (with extensions) and all trailers together.
    public let maxLine: Int
    public let maxTrailers: Int

    public init(maxBody: Int, maxLine: Int = 1024, maxTrailers: Int = 4096) {
        self.maxBody = maxBody
        self.maxLine = maxLine
        self.maxTrailers = maxTrailers
    }

    /// Consumes what it can of `buffer` from `position` (moved past what was
    /// used); true once the last chunk and the trailers are in.
    public mutating func consume(_ buffer: [UInt8], from position: inout Int) throws(HTTPRequestError) -> Bool {
        while true {
            switch state {
            case .done:
                return true
            case .size:
                guard let line = try nextLine(buffer, &position, limit: maxLine) else { return false }
                let size = try Self.chunkSize(line)
                guard size <= maxBody - body.count else { throw .tooLarge(limit: maxBody) }
                state = size == 0 ? .trailers(bytes: 0) : .data(remaining: size)
            case .data(let remaining):
                let available = min(remaining, buffer.count - position)
                guard available > 0 else { return false }
                body.append(contentsOf: buffer[position..<(position + available)])
                position += available
                state = remaining == available ? .dataEnd : .data(remaining: remaining - available)
            case .dataEnd:
                // CRLF (or a lone LF) must follow the data, nothing else.
                guard position < buffer.count else { return false }
                if buffer[position] == HTTPBytes.cr {
                    guard position + 1 < buffer.count else { return false }
                    position += 1
                }
                guard buffer[position] == HTTPBytes.lf else {
                    throw .badRequest("bad_chunk", "a chunk's data must be followed by CRLF")
                }
                position += 1
                state = .size
            case .trailers(let bytes):
                let before = position
                guard let line = try nextLine(buffer, &position, limit: maxTrailers - bytes) else { return false }
                if line.isEmpty {
                    state = .done
                } else {
                    _ = try HTTPRequestHead.parseField(line)
                    state = .trailers(bytes: bytes + position - before)
                }
            }
        }
    }

    /// The next line ending in LF (a CR before it is dropped), or nil if it
    /// has not arrived; a longer line than `limit` is refused.
    private func nextLine(_ buffer: [UInt8], _ position: inout Int, limit: Int) throws(HTTPRequestError)
        -> ArraySlice<UInt8>? {
        let window = buffer[position..<min(buffer.count, position + limit + 1)]
        guard let lf = window.firstIndex(of: HTTPBytes.lf) else {
            if window.count > limit {
                throw HTTPRequestError(431, "chunk_line_too_long", "a chunk-size line or the trailers are too long")
            }
            return nil
        }
        var line = buffer[position..<lf]
        if line.last == HTTPBytes.cr { line = line.dropLast() }
        guard !line.contains(HTTPBytes.cr) else {
            throw .badRequest("bad_chunk", "a bare CR in the chunked framing")
        }
        position = lf + 1
        return line
    }

    /// `1*HEXDIG [ BWS ";" extensions ]`.
    private static func chunkSize(_ line: ArraySlice<UInt8>) throws(HTTPRequestError) -> Int {
        let digits = line.prefix { HTTPBytes.hexValue($0) != nil }
        let rest = HTTPBytes.trimmingWhitespace(line[digits.endIndex...])
        guard !digits.isEmpty, rest.isEmpty || rest.first == UInt8(ascii: ";"),
              !rest.contains(where: HTTPBytes.isForbiddenInFieldValue) else {
            throw .badRequest("bad_chunk", "a chunk must start with its size in hex")
        }
        let significant = digits.drop { $0 == UInt8(ascii: "0") }
        guard significant.count <= 12 else { return Int.max }
        return significant.reduce(0) { $0 * 16 + HTTPBytes.hexValue($1)! }
    }
}
