/// Why a drawing, a line of input or a model file could not be used.
///
/// `description` is safe to send to a client; `debugDescription` adds details.
public struct RecognitionError: Error, Sendable, Equatable, CustomStringConvertible,
    CustomDebugStringConvertible
{
    public enum Code: String, Sendable, CaseIterable {
        /// No points at all.
        case emptyDrawing
        /// More than `Rasterizer.maxStrokes` strokes.
        case tooManyStrokes
        /// More than `Rasterizer.maxPoints` points.
        case tooManyPoints
        /// A coordinate or time is NaN or infinite.
        case nonFiniteValue
        /// A coordinate is beyond ±`Rasterizer.maxMagnitude`.
        case coordinateOutOfRange
        /// The input line is not JSON of the expected shape.
        case malformedInput
        /// The input line is longer than `RecognizeLines.maxLineBytes`.
        case lineTooLong
        /// The weights file is missing, corrupt, or for another architecture.
        case invalidModel
    }

    public var code: Code
    /// Internal detail (file paths, offsets); not for clients.
    public var detail: String

    public init(_ code: Code, detail: String = "") {
        self.code = code
        self.detail = detail
    }

    public var description: String {
        switch code {
        case .emptyDrawing: "the drawing has no points"
        case .tooManyStrokes: "a drawing may have at most \(Rasterizer.maxStrokes) strokes"
        case .tooManyPoints: "a drawing may have at most \(Rasterizer.maxPoints) points"
        case .nonFiniteValue: "coordinates and times must be finite numbers"
        case .coordinateOutOfRange:
            "coordinates must lie within ±\(Int(Rasterizer.maxMagnitude)) pixels"
        case .malformedInput:
            #"expected {"strokes": [[[x, y, t_ms], ...], ...]} with numeric coordinates"#
        case .lineTooLong: "the line is longer than \(RecognizeLines.maxLineBytes) bytes"
        case .invalidModel: "the recognition model could not be loaded"
        }
    }

    public var debugDescription: String {
        detail.isEmpty ? "\(code.rawValue): \(description)" : "\(code.rawValue): \(description) (\(detail))"
    }
}
