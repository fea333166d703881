import Foundation
import MindPadJSON

/// Refuses a whole drawing that is probably not a digit, by gradient-boosted
/// trees on eight features: the network's calibrated confidence, its second
/// probability and the entropy of the ten, and the drawing's `StrokeShape`.
/// The confidence alone cannot tell a scribble the network takes for a digit
/// from that digit; the strokes can (docs/recognition.md, "Calibration and refusal").
///
/// Fitted by `tools/train/refusal.py` on the calibration set and carried in the
/// weights' metadata (`refusal`, JSON): the trees' score is the log-odds of
/// "not a digit", and a score above `threshold` refuses.
public struct RefusalRule: Sendable {
    /// The features in the order the trees index them.
    public static let featureNames = ["confidence", "second", "entropy", "strokes", "ink", "turning", "width", "height"]

    /// Every tree's nodes, one after another: an inner node sends a drawing to
    /// `left` when `features[feature] <= value`, else to `right` (indices into
    /// `nodes`, always past the node itself); a leaf (`feature` < 0) adds `value`.
    struct Node: Sendable {
        var feature: Int32
        var left: Int32
        var right: Int32
        var value: Double
    }
    let nodes: [Node]
    let roots: [Int]
    public let baseline: Double
    /// A score above this refuses.
    public let threshold: Double

    /// Reads the rule from its JSON: `{"features": [...], "baseline": b,
    /// "threshold": t, "trees": [[[feature, value, left, right] | [value], ...], ...]}`,
    /// child indices within the tree.
    public init(json text: String) throws(RecognitionError) {
        func invalid(_ why: String) -> RecognitionError { RecognitionError(.invalidModel, detail: "refusal rule: \(why)") }
        let json: JSON
        do { json = try JSON.parse(text) } catch { throw invalid("not JSON") }
        guard json["features"]?.array?.compactMap(\.string) == Self.featureNames else {
            throw invalid("features are not \(Self.featureNames)")
        }
        guard let baseline = json["baseline"]?.number, baseline.isFinite,
              let threshold = json["threshold"]?.number, threshold.isFinite,
              let trees = json["trees"]?.array, !trees.isEmpty, trees.count <= 10_000
        else { throw invalid("baseline, threshold or trees missing") }
        var nodes: [Node] = [], roots: [Int] = []
        for tree in trees {
            guard let list = tree.array, !list.isEmpty, list.count <= 1_000 else { throw invalid("an empty tree") }
            let base = nodes.count
            roots.append(base)
            for (i, item) in list.enumerated() {
                let v = item.array?.compactMap(\.number) ?? []
                guard v.count == (item.array?.count ?? -1), v.allSatisfy(\.isFinite) else { throw invalid("a node is not numbers") }
                if v.count == 1 {
                    nodes.append(Node(feature: -1, left: 0, right: 0, value: v[0]))
                    continue
                }
                guard v.count == 4, let f = Int32(exactly: v[0]), (0..<Int32(Self.featureNames.count)).contains(f),
                      let l = Int(exactly: v[2]), let r = Int(exactly: v[3]),
                      l > i, r > i, l < list.count, r < list.count
                else { throw invalid("a node is not [feature, threshold, left, right] or [value]") }
                nodes.append(Node(feature: f, left: Int32(base + l), right: Int32(base + r), value: v[1]))
            }
        }
        self.nodes = nodes
        self.roots = roots
        self.baseline = baseline
        self.threshold = threshold
    }

    /// The features of a reading and its drawing, in `featureNames` order.
    static func features(_ probabilities: DigitProbabilities, _ shape: StrokeShape) -> SIMD8<Double> {
        var first = 0.0, second = 0.0, entropy = 0.0
        for p in probabilities {
            let q = Double(p)
            if q > first { second = first; first = q } else if q > second { second = q }
            entropy -= q * Foundation.log(max(q, 1e-30))
        }
        return SIMD8(first, second, entropy, shape.strokes, shape.ink, shape.turning, shape.width, shape.height)
    }

    /// The log-odds of "not a digit". Allocates nothing.
    public func score(_ x: SIMD8<Double>) -> Double {
        nodes.withUnsafeBufferPointer { nodes in
            var sum = baseline
            for root in roots {
                var i = root
                while nodes[i].feature >= 0 {
                    i = Int(x[Int(nodes[i].feature)] <= nodes[i].value ? nodes[i].left : nodes[i].right)
                }
                sum += nodes[i].value
            }
            return sum
        }
    }

    public func refuses(_ x: SIMD8<Double>) -> Bool { score(x) > threshold }
}
