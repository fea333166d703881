import Foundation

/// Splits a handwritten number into digits and reads them (the work behind
/// `Recognizer.readNumber`). One per call; it holds a few small arrays (one
/// entry or one row profile per stroke, at most 64 strokes) and reads every
/// candidate digit in place, as an `InkPart` of the drawing.
///
/// 1. Each stroke's ink is summarised per horizontal band of the line (its
///    leftmost and rightmost x in each band). Two strokes are apart by the
///    smallest horizontal gap between them over the bands they share: what a
///    reader sees as the space between two digits, whatever the slant.
/// 2. The scale is the ink's height: the median height of the clusters of
///    strokes whose ink overlaps (one tall or small digit does not move it).
/// 3. Strokes closer than `joinGap` heights are one group: a 4's or 5's second
///    stroke, a 7's crossbar, even when they only nearly touch. A low, short
///    group (a bar drawn apart) joins the group nearest to it, or the one
///    holding the stroke drawn just before it when that one is hardly
///    further (`fragmentOrderSlack`), and so do two neighbours one above the
///    other (`joinStacked`).
/// 4. Each group is read whole. One too wide for a digit, or read without
///    confidence, is also tried cut in two along the lines (vertical or
///    slanted) that cross the least ink, and the reading with the best score
///    (the digits' log-probabilities, a prior on width and on what the cut goes
///    through) wins. Sides still too wide are cut again.
/// 5. A "digit" far lower than the number's others is a neighbour's stroke
///    read on its own: it joins that neighbour (`dropFlatDigits`).
struct NumberSegmenter {
    let recognizer: Recognizer
    /// Reads a digit the segmenter settled on again, when set and the
    /// reading is less sure than `tuning.candidateRereadBelow`
    /// (`Recognizer.candidates` weighs the candidates, `numbers` is asked
    /// where it is unsure).
    var digitReader: Recognizer?
    /// Reads such a digit too, when set: the digit is what the two readings
    /// agree on (`Recognition.agreeing`). The single-digit network: the
    /// number network reads the synthetic writers better, the single-digit
    /// network real writers' shapes, and together they read both best
    /// (docs/recognition.md, "Numbers").
    var secondReader: Recognizer?
    /// The player's hand, applied where `secondReader` reads a digit.
    var hand: PlayerHand?
    let workspace: Recognizer.Workspace
    let drawing: Drawing
    let tuning: NumberReadingTuning
    /// The scale: the ink's height.
    private(set) var height = 1.0
    /// The median group's width.
    private(set) var typicalWidth = 1.0
    /// Told every group the split gate decides on: its strokes and features
    /// (for fitting the gate: tools/train/number_reading.py --gate).
    var gateFeatures: ((UInt64, [Double]) -> Void)?
    /// Told every part read and its image (see `Recognizer.readNumber`).
    var partRead: ((CandidatePart, UnsafeBufferPointer<Float>) -> Void)?
    /// Told the features of every straight stretch `liftingPensWays` weighs:
    /// the stroke, the stretch's first point + 1 and last point, the features
    /// (for fitting `tuning.wayWeights`: tools/train/number_reading.py --fit-way).
    var wayFeaturesTold: ((Int, Int, Int, [Double]) -> Void)?
    private(set) var digits: [DigitReading] = []
    /// Every stroke's row profile from `groups()` (its leftmost and rightmost x
    /// per band, at `slot[s] * bands`), for comparing runs of strokes.
    var profileLeft: [Double] = []
    var profileRight: [Double] = []
    var slot: [Int] = []
    /// A band's height in the row profiles.
    var bandHeight = 1.0
    /// Readings of parts already read for the group at hand (stroke order
    /// reads the same runs again for every place it tries splitting a stroke).
    var readings: [InkPart: Recognition] = [:]
    /// Where the row profiles' first band starts.
    var profileTop = 0.0
    /// What the reading has cost so far (`charge`), against
    /// `tuning.workLimit`.
    private(set) var work = 0
    /// Each stroke's number of points.
    let strokePoints: [Int]

    /// Bands of the line's height in a row profile.
    static let bands = 24
    /// Slants tried for a cut (x moved right per pixel up).
    static let shears: [Double] = [-0.2, 0, 0.2, 0.4, 0.6]

    struct Group {
        var strokes: UInt64
        var x0, x1, y0, y1: Double
        /// The widest the ink is in one band (slant does not widen it).
        var width = 0.0
        var height: Double { y1 - y0 }
    }

    init(_ drawing: Drawing, recognizer: Recognizer, workspace: Recognizer.Workspace, tuning: NumberReadingTuning) {
        self.drawing = drawing
        strokePoints = drawing.strokes.map(\.count)
        self.recognizer = recognizer
        self.workspace = workspace
        self.tuning = tuning
    }

    /// The drawing with each pen's way lifted: a stroke that ran on from one
    /// digit into the next, whose longest straight stretch looks like the
    /// way between them (`wayFeatures`, `tuning.wayWeights`), becomes two
    /// strokes without it, one after the other in the order written. Nil
    /// when no stroke looks so. The two pieces are then read like digits
    /// written apart (groups by ink distance, stroke order); left in one
    /// stroke, a split inside it must beat reading the stroke whole by a
    /// margin (`readByOrder`), and often did not (a 5 run on into a 0 read
    /// as one wide 0 cut into 8 and 0). Visits every point once more, and
    /// the groups are found again when a way is lifted.
    mutating func liftingPensWays() -> Drawing? {
        guard !tuning.wayWeights.isEmpty, drawing.strokes.count < 64 else { return nil }
        _ = groups()
        var strokes: [[StrokePoint]]?
        var added = 0
        for s in 0..<drawing.strokes.count where slot[s] >= 0 && drawing.strokes.count + added < 64 {
            guard width(of: 1 << UInt64(s)) > tuning.strokeSplitWidth * height else { continue }
            let points = drawing.strokes[s]
            charge(points.count)
            guard let way = stretches(s, points).first else { continue }
            let features = wayFeatures(points, way)
            wayFeaturesTold?(s, way.end, way.start, features)
            let smallerPiece = features[6]
            guard Self.gate(features, tuning.wayWeights) > tuning.wayFloor, smallerPiece >= tuning.wayPiece else { continue }
            if strokes == nil { strokes = drawing.strokes }
            let at = s + added
            strokes![at] = Array(points[..<way.end])
            strokes!.insert(Array(points[way.start...]), at: at + 1)
            added += 1
        }
        return strokes.map { Drawing(strokes: $0) }
    }

    /// What tells the pen's way from one digit to the next (`way`, a
    /// straight stretch of `points`) from a digit's own straight stretch, in
    /// heights, for `tuning.wayWeights`: its length (capped at 1.5), how far
    /// it goes right and down, and the stroke's pieces before and after it:
    /// their overlap side to side, the shorter one's height, the height they
    /// share; last, not weighed, the smaller piece's size (its box's larger
    /// side, for `tuning.wayPiece`). The way between two digits is long and goes right, and the
    /// digits either side of it stand side by side, both tall; a digit's own
    /// straight stretches (a 7's bar, a 2's base) are shorter, and what is
    /// left either side of them overlaps or is small.
    func wayFeatures(_ points: [StrokePoint], _ way: StrokeSplit) -> [Double] {
        let a = points[way.end - 1], b = points[way.start]
        let length = ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
        var l0 = Double.infinity, l1 = -Double.infinity, r0 = Double.infinity, r1 = -Double.infinity
        var lt = Double.infinity, lb = -Double.infinity, rt = Double.infinity, rb = -Double.infinity
        for p in points[..<way.end] { l0 = min(l0, p.x); l1 = max(l1, p.x); lt = min(lt, p.y); lb = max(lb, p.y) }
        for p in points[way.start...] { r0 = min(r0, p.x); r1 = max(r1, p.x); rt = min(rt, p.y); rb = max(rb, p.y) }
        return [
            min(length / height, 1.5), (b.x - a.x) / height, (min(l1, r1) - max(l0, r0)) / height,
            min(lb - lt, rb - rt) / height, (b.y - a.y) / height, (min(lb, rb) - max(lt, rt)) / height,
            min(max(l1 - l0, lb - lt), max(r1 - r0, rb - rt)) / height,
        ]
    }

    /// What the reading has cost so far, carried into the reading of the
    /// drawing with the pen's ways lifted.
    mutating func carry(_ work: Int) { charge(work) }

    /// Reads the whole drawing.
    mutating func read() -> [DigitReading] {
        var groups = groups()
        // The writer's digit width: the median group's (a group of touching
        // digits among single ones stands out against it).
        var widths = groups.map(\.width)
        widths.sort()
        typicalWidth = max(widths[widths.count / 2], 1e-9)
        groups = joiningPieces(groups)
        for group in groups {
            guard digits.count < Recognizer.maxNumberDigits else { break }
            read(group)
        }
        dropFlatDigits()
        return digits
    }

    /// A digit that fell apart into two pieces with a gap between them (a 0
    /// of two arcs, a 9 whose tail starts off its loop, an 8 of two circles
    /// that do not touch) is two groups, and each reads as a digit of its
    /// own ("11" for the 0). Two neighbouring groups closer than `piecesGap`
    /// heights whose ink together is no wider than `piecesWidth` heights are
    /// one group when read together they are a digit surely
    /// (`piecesConfidence`) and more surely than the two are apart: the
    /// log-probability of the whole beats the sum of the pieces' by
    /// `piecesMargin` (issue 43).
    mutating func joiningPieces(_ groups: [Group]) -> [Group] {
        guard tuning.piecesGap > 0, groups.count >= 2 else { return groups }
        var out: [Group] = []
        var i = 0
        while i < groups.count {
            var g = groups[i]
            if i + 1 < groups.count, !outOfWork {
                let b = groups[i + 1]
                let gap = b.x0 - g.x1
                var union = g
                union.merge(b)
                if gap < tuning.piecesGap * height, union.x1 - union.x0 <= tuning.piecesWidth * height {
                    let whole = recognize(InkPart(strokes: union.strokes, shear: 0, band: -Double.infinity...Double.infinity))
                    if whole.confidence >= tuning.piecesConfidence {
                        let left = recognize(InkPart(strokes: g.strokes, shear: 0, band: -Double.infinity...Double.infinity))
                        let right = recognize(InkPart(strokes: b.strokes, shear: 0, band: -Double.infinity...Double.infinity))
                        if Self.log(whole.confidence) > Self.log(left.confidence) + Self.log(right.confidence) + tuning.piecesMargin {
                            union.width = width(of: union.strokes)
                            g = union
                            i += 1
                        }
                    }
                }
            }
            out.append(g)
            i += 1
        }
        return out
    }

    /// The digits of one number share a height: a "digit" whose ink is lower
    /// than `flatDigit` of the number's median digit is a stroke of a
    /// neighbour read on its own (a 5's bar or a 7's crossbar drawn apart,
    /// parted from its digit by stroke order or a cut; the network reads it
    /// at about 0.1, no digit at all). It joins the digit nearest to it, whose
    /// box grows to hold it and whose reading stands. So does a "digit" read
    /// less surely than `strayConfidence` beside one read more surely: ink
    /// the network does not take for any digit (a 5's bar with a 1's foot
    /// beside it, parts of two neighbours), whose reading would be wrong
    /// more often than right even if it were a digit.
    mutating func dropFlatDigits() {
        digits = Self.droppingFlat(digits, below: tuning.flatDigit, unsureBelow: tuning.strayConfidence)
    }

    /// `digits` without the ones lower than `share` of their median height
    /// or read less surely than `unsureBelow` (when the neighbour they would
    /// join is not), each joined to its nearest neighbour (see `dropFlatDigits`).
    static func droppingFlat(_ digits: [DigitReading], below share: Double, unsureBelow: Float = 0) -> [DigitReading] {
        guard digits.count >= 2, share > 0 || unsureBelow > 0 else { return digits }
        var digits = digits
        var heights = digits.map { $0.box.y1 - $0.box.y0 }
        heights.sort()
        let limit = share * heights[heights.count / 2]
        var k = 0
        while k < digits.count && digits.count >= 2 {
            let flat = digits[k].box
            func gap(_ j: Int) -> Double {
                let b = digits[j].box
                return max(b.x0 - flat.x1, flat.x0 - b.x1, 0)
            }
            let near = k == 0 ? 1 : k == digits.count - 1 ? k - 1 : gap(k - 1) <= gap(k + 1) ? k - 1 : k + 1
            let stray = digits[k].confidence < unsureBelow && digits[near].confidence >= unsureBelow
            guard flat.y1 - flat.y0 < limit || stray else { k += 1; continue }
            let d = digits[near]
            let box = InkBox(x0: min(d.box.x0, flat.x0), y0: min(d.box.y0, flat.y0),
                             x1: max(d.box.x1, flat.x1), y1: max(d.box.y1, flat.y1))
            digits[near] = DigitReading(digit: d.digit, confidence: d.confidence, box: box, unsure: d.unsure, choices: d.choices)
            digits.remove(at: k)
        }
        return digits
    }

    // MARK: grouping

    /// The groups of strokes, left to right.
    mutating func groups() -> [Group] {
        let bands = Self.bands
        var top = Double.infinity, bottom = -Double.infinity
        var ids: [Int] = []
        ids.reserveCapacity(drawing.strokes.count)
        for (s, stroke) in drawing.strokes.enumerated() where !stroke.isEmpty {
            ids.append(s)
            for p in stroke { top = min(top, p.y); bottom = max(bottom, p.y) }
        }
        let n = ids.count
        let band = max((bottom - top) / Double(bands), 1e-9)
        // Row profiles: left[i * bands + b], right[...] for stroke ids[i].
        var left = [Double](repeating: .infinity, count: n * bands)
        var right = [Double](repeating: -.infinity, count: n * bands)
        var boxes: [Group] = []
        boxes.reserveCapacity(n)
        for (i, s) in ids.enumerated() {
            let stroke = drawing.strokes[s]
            var g = Group(strokes: 1 << UInt64(s), x0: .infinity, x1: -.infinity, y0: .infinity, y1: -.infinity)
            for p in stroke {
                g.x0 = min(g.x0, p.x); g.x1 = max(g.x1, p.x)
                g.y0 = min(g.y0, p.y); g.y1 = max(g.y1, p.y)
            }
            Self.profile(stroke[...], row: i, top: top, band: band, left: &left, right: &right)
            boxes.append(g)
        }
        slot = [Int](repeating: -1, count: drawing.strokes.count)
        for (i, s) in ids.enumerated() { slot[s] = i }
        // How far apart two strokes are: the least gap over the bands where both
        // have ink (negative when they overlap there); boxes apart if none.
        var apart = [Double](repeating: 0, count: n * n)
        for i in 0..<n {
            for j in (i + 1)..<max(n, i + 1) {
                var gap = Double.infinity
                for b in 0..<bands {
                    let (li, ri) = (left[i * bands + b], right[i * bands + b])
                    let (lj, rj) = (left[j * bands + b], right[j * bands + b])
                    guard li <= ri, lj <= rj else { continue }
                    gap = min(gap, max(lj - ri, li - rj))
                }
                if gap == .infinity {
                    gap = max(boxes[j].x0 - boxes[i].x1, boxes[i].x0 - boxes[j].x1)
                }
                apart[i * n + j] = gap
                apart[j * n + i] = gap
            }
        }
        // Clusters of strokes closer than `limit` (single linkage), left to right.
        func clusters(closerThan limit: Double) -> [Group] {
            var owner = Array(0..<n)
            func root(_ i: Int) -> Int {
                var r = i
                while owner[r] != r { r = owner[r] }
                return r
            }
            for i in 0..<n {
                for j in (i + 1)..<max(n, i + 1) where apart[i * n + j] < limit {
                    let (a, b) = (root(i), root(j))
                    if a != b { owner[max(a, b)] = min(a, b) }
                }
            }
            var out: [Group] = []
            var index = [Int](repeating: -1, count: n)
            for i in 0..<n {
                let r = root(i)
                if index[r] < 0 {
                    index[r] = out.count
                    out.append(boxes[i])
                } else {
                    out[index[r]].merge(boxes[i])
                }
            }
            return out
        }
        var heights = clusters(closerThan: 0).map(\.height)
        heights.sort()
        height = heights[heights.count / 2]
        if height <= 1e-9 {
            // Flat ink (dashes only): the widest stroke is the scale instead.
            height = max(boxes.map { $0.x1 - $0.x0 }.max() ?? 1, 1e-6)
        }
        var groups = clusters(closerThan: tuning.joinGap * height)
        // A low, short group (a bar drawn apart) belongs to the group nearest to
        // it, when there is a group that is not one.
        func isFragment(_ g: Group) -> Bool {
            g.height < tuning.fragmentHeight * height && g.x1 - g.x0 < tuning.fragmentWidth * height
        }
        if groups.count > 1 && groups.contains(where: { !isFragment($0) }) && groups.contains(where: isFragment) {
            // Group to group: the least distance between their strokes.
            let m = groups.count
            var near = [Double](repeating: .infinity, count: m * m)
            var of = [Int](repeating: 0, count: n)
            for (k, g) in groups.enumerated() {
                for i in 0..<n where g.strokes & (1 << UInt64(ids[i])) != 0 { of[i] = k }
            }
            for i in 0..<n {
                for j in 0..<n where of[i] != of[j] {
                    near[of[i] * m + of[j]] = min(near[of[i] * m + of[j]], apart[i * n + j])
                }
            }
            var alive = [Bool](repeating: true, count: m)
            for f in 0..<m where isFragment(groups[f]) {
                var nearest = -1
                for k in 0..<m where k != f && alive[k] && (nearest < 0 || near[f * m + k] < near[f * m + nearest]) {
                    nearest = k
                }
                guard nearest >= 0 else { continue }
                if tuning.fragmentOrderSlack > 0 {
                    // The stroke drawn just before the fragment's first.
                    let first = groups[f].strokes.trailingZeroBitCount
                    var before = first - 1
                    while before >= 0 && slot[before] < 0 { before -= 1 }
                    if before >= 0, let k = (0..<m).first(where: { $0 != f && alive[$0] && groups[$0].strokes & (1 << UInt64(before)) != 0 }),
                       near[f * m + k] <= near[f * m + nearest] + tuning.fragmentOrderSlack * height {
                        nearest = k
                    }
                }
                groups[nearest].merge(groups[f])
                alive[f] = false
                for k in 0..<m {
                    near[nearest * m + k] = min(near[nearest * m + k], near[f * m + k])
                    near[k * m + nearest] = near[nearest * m + k]
                }
            }
            groups = groups.indices.filter { alive[$0] }.map { groups[$0] }
        }
        profileLeft = left
        profileRight = right
        bandHeight = band
        profileTop = top
        groups.sort { $0.x0 + $0.x1 < $1.x0 + $1.x1 }
        groups = joinStacked(groups)
        for k in groups.indices { groups[k].width = width(of: groups[k].strokes) }
        return groups
    }

    /// The digits of a number stand side by side on one line: neighbours
    /// share most of their height (the shorter's, uneven sizes and baselines
    /// included). Two neighbouring groups that share less than `stackOverlap`
    /// of it, one above the other and no further apart than `stackGap`
    /// heights, are one digit drawn in two strokes that do not touch (a 9's
    /// loop and its stem, an 8's two loops), and so are two where one hangs
    /// beside the other (`hangs`: a 9's loop beside its stem, well above its
    /// foot). So are two that overlap side to side on every slant
    /// (`sideOverlap`): digits side by side are clear of each other on some
    /// slant, however they lean; groups that are not are pieces ink distance
    /// parted wrongly (touching digits written into each other's space, a
    /// 5's bar pushed over the next digit). The group is read by stroke
    /// order, so two digits joined here part again there.
    func joinStacked(_ groups: [Group]) -> [Group] {
        guard tuning.stackOverlap > 0, groups.count >= 2 else { return groups }
        var out = [groups[0]]
        for g in groups.dropFirst() {
            let a = out[out.count - 1]
            let shorter = max(min(a.height, g.height), 1e-9)
            let shared = max(0, min(a.y1, g.y1) - max(a.y0, g.y0)) / shorter
            let gap = max(g.x0 - a.x1, a.x0 - g.x1)
            if gap < tuning.stackGap * height
                && (shared < tuning.stackOverlap || hangs(a.y0...a.y1, g.y0...g.y1)
                    || (tuning.sideOverlap > 0 && across(a.strokes, g.strokes) >= tuning.sideOverlap)) {
                out[out.count - 1].merge(g)
            } else {
                out.append(g)
            }
        }
        return out
    }

    /// How much two sets of strokes overlap side to side, on the slant where
    /// they overlap least: the shared stretch of u = x + shear·y over the
    /// narrower's (0: apart on some slant, as slanted digits side by side are).
    func across(_ a: UInt64, _ b: UInt64) -> Double {
        var least = Double.infinity
        for shear in Self.shears {
            var a0 = Double.infinity, a1 = -Double.infinity, b0 = Double.infinity, b1 = -Double.infinity
            for (s, stroke) in drawing.strokes.enumerated() where (a | b) & (1 << UInt64(s)) != 0 {
                let inA = a & (1 << UInt64(s)) != 0
                for p in stroke {
                    let u = p.x + shear * p.y
                    if inA { a0 = min(a0, u); a1 = max(a1, u) } else { b0 = min(b0, u); b1 = max(b1, u) }
                }
            }
            guard a0 <= a1, b0 <= b1 else { return 0 }
            least = min(least, max(0, min(a1, b1) - max(a0, b0)) / max(min(a1 - a0, b1 - b0), 1e-9))
        }
        return least.isFinite ? least : 0
    }

    /// Marks row `row` of a row profile (cleared to ±infinity by the caller)
    /// with these points' ink: in every band, its leftmost and rightmost x.
    static func profile(
        _ stroke: ArraySlice<StrokePoint>, row i: Int, top: Double, band: Double,
        left: inout [Double], right: inout [Double]
    ) {
        guard var a = stroke.first else { return }
        func mark(_ x: Double, _ y: Double) {
            let b = min(max(Int((y - top) / band), 0), bands - 1)
            left[i * bands + b] = min(left[i * bands + b], x)
            right[i * bands + b] = max(right[i * bands + b], x)
        }
        mark(a.x, a.y)
        for p in stroke {
            // Every band the segment a→p passes through, at its edges.
            let lo = min(a.y, p.y), hi = max(a.y, p.y)
            let b0 = min(max(Int((lo - top) / band), 0), bands - 1)
            let b1 = min(max(Int((hi - top) / band), 0), bands - 1)
            if b0 < b1 {
                for b in b0...b1 {
                    let y = min(max(top + Double(b) * band, lo), hi)
                    let y2 = min(max(top + Double(b + 1) * band, lo), hi)
                    let x = a.x + (p.x - a.x) * (y - a.y) / (p.y - a.y)
                    let x2 = a.x + (p.x - a.x) * (y2 - a.y) / (p.y - a.y)
                    let k = i * bands + b
                    left[k] = min(left[k], x, x2)
                    right[k] = max(right[k], x, x2)
                }
            } else {
                mark(p.x, p.y)
            }
            a = p
        }
    }

    /// How wide these strokes' ink is: the widest over a third of the height
    /// (a slant widens that by a third of itself; a whole box would by all of
    /// it), from the row profiles.
    func width(of strokes: UInt64) -> Double {
        let bands = Self.bands
        let window = max(1, Int((height / 3 / bandHeight).rounded()))
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: 2 * bands) { buffer in
            let lows = buffer.baseAddress!, highs = lows + bands
            for b in 0..<bands {
                var lo = Double.infinity, hi = -Double.infinity
                for s in 0..<min(slot.count, 64) where strokes & (1 << UInt64(s)) != 0 && slot[s] >= 0 {
                    lo = min(lo, profileLeft[slot[s] * bands + b]); hi = max(hi, profileRight[slot[s] * bands + b])
                }
                lows[b] = lo; highs[b] = hi
            }
            var width = 0.0
            for b in 0..<bands {
                var lo = Double.infinity, hi = -Double.infinity
                for c in b..<min(b + window, bands) { lo = min(lo, lows[c]); hi = max(hi, highs[c]) }
                if lo <= hi { width = max(width, hi - lo) }
            }
            return width
        }
    }

    // MARK: reading

    mutating func recognize(_ part: InkPart) -> Recognition {
        // Rasterizing a part visits each segment once per pixel it covers.
        charge(tuning.readWork + 8 * points(of: part))
        let r = recognizer.recognize(drawing, part: part, in: workspace, judged: false)
        if let partRead {
            partRead(CandidatePart(strokes: part.strokes, shear: part.shear, lo: part.band.lowerBound,
                                   hi: part.band.upperBound, piece: part.piece, points: part.points),
                     UnsafeBufferPointer(start: workspace.image, count: 784))
        }
        return r
    }

    static func log(_ p: Float) -> Double { Foundation.log(max(Double(p), 1e-6)) }

    // MARK: work

    /// Counts work: points visited (a part rasterized, a width measured, a
    /// run's box, a cut's column), and `tuning.readWork` per candidate read.
    /// Handwriting costs little: the synthetic sets' numbers a median of
    /// 18,000–53,000 and at most 3.8 million. A drawing within the input
    /// limits that is no handwriting can cost hundreds of times more (64
    /// scribbled strokes: every stroke wide enough to have run on, crossing
    /// every cut many times; 1.4 billion, 1.8 s). Past `tuning.workLimit`
    /// the segmenter starts nothing more: a split, a run or a cut the work
    /// ran out in is not used, and each group still to read is read whole.
    /// So a reading costs at most the limit, the step that crossed it and a
    /// whole reading of each group left (about 40 per point in all), whatever
    /// the drawing.
    mutating func charge(_ amount: Int) { work &+= amount }

    /// Whether the work is spent (`charge`).
    var outOfWork: Bool { work >= tuning.workLimit }

    /// A part's width (`InkPart.width`, over a third of the height), which
    /// visits each segment once per band it spans (up to 24).
    mutating func width(of part: InkPart, box: InkBox) -> Double {
        charge(24 * points(of: part))
        return part.width(in: drawing, box: box, window: height / 3)
    }

    /// How many points the strokes hold.
    func points(of strokes: UInt64) -> Int {
        var count = 0
        var rest = strokes
        while rest != 0 {
            let s = rest.trailingZeroBitCount
            rest &= rest - 1
            if s < strokePoints.count { count += strokePoints[s] }
        }
        return count
    }

    /// How many points a part reads.
    func points(of part: InkPart) -> Int {
        guard part.piece >= 0, part.contains(stroke: part.piece), part.piece < strokePoints.count else {
            return points(of: part.strokes)
        }
        return points(of: part.strokes & ~(1 << UInt64(part.piece))) + part.points.count
    }

    /// Adds a digit the segmenter settled on, read again where the
    /// candidates network is unsure of it, and judged by the choice rule of
    /// the network that read it (a sure digit, a choice, or no digit).
    mutating func emit(_ r: Recognition, _ part: InkPart) {
        guard digits.count < Recognizer.maxNumberDigits, let box = part.box(in: drawing) else { return }
        var r = r
        if let digitReader, r.confidence < tuning.candidateRereadBelow {
            if let secondReader {
                r = digitReader.recognize(drawing, part: part, in: workspace, judged: false)
                    .agreeing(with: secondReader.recognize(drawing, part: part, in: workspace, judged: false, hand: hand),
                              rule: digitReader.choiceRule)
            } else {
                r = digitReader.recognize(drawing, part: part, in: workspace)
            }
        } else {
            r = r.judged(by: recognizer.choiceRule, refused: r.unsure)
        }
        digits.append(DigitReading(digit: r.digit, confidence: r.confidence, box: box, unsure: r.unsure, choices: r.choices))
    }

    /// One way to read a group as k digits: its score, its digits, and what the
    /// split gate looks at.
    struct Hypothesis {
        var score: Double
        var reading: [(Recognition, InkPart)] = []
        var lowest = Double.infinity
        var widest = -Double.infinity
    }

    /// Reads a group cut into k digits along `split`, stopping once the score
    /// cannot beat `floor` any more (the score only falls as digits are added).
    private mutating func read(_ group: Group, _ split: Split, floor: Double) -> Hypothesis {
        let k = split.at.count + 1
        var h = Hypothesis(score: -Double(k - 1) * tuning.cutCost - split.cost)
        h.reading.reserveCapacity(k)
        for i in 0..<k {
            // A reading the work ran out in is not finished: it loses.
            guard !outOfWork else { h.score = -.infinity; break }
            let lo = i == 0 ? -Double.infinity : split.at[i - 1]
            let hi = i == k - 1 ? Double.infinity : split.at[i]
            let part = InkPart(strokes: group.strokes, shear: split.shear, band: lo...hi)
            guard let box = part.box(in: drawing) else { h.score = -.infinity; break }
            let r = recognize(part)
            let tall = (box.y1 - box.y0) / height
            let wide = width(of: part, box: box)
            h.lowest = min(h.lowest, tall)
            h.widest = max(h.widest, wide / height - tuning.singleWidths[r.digit])
            h.score += Self.log(r.confidence) - tuning.pieceHeightCost * max(0, tuning.pieceHeight - tall)
                - widthCost(wide, digit: r.digit)
            h.reading.append((r, part))
            if h.score <= floor { break }
        }
        return h
    }

    /// Reads one group as one digit or more. A group narrow enough and read
    /// confidently is one digit. Otherwise it is also read as two digits, cut
    /// along the best line; the split gate (a logistic model over the width,
    /// both readings and the cut) decides between one and more, and for more,
    /// k = 3… (as many as its width suggests, and one either side) compete with
    /// the two by score.
    private mutating func read(_ group: Group, byOrder: Bool = true) {
        let wholePart = InkPart(strokes: group.strokes, shear: 0, band: -Double.infinity...Double.infinity)
        let whole = recognize(wholePart)
        let width = group.width / height
        let relative = group.width / typicalWidth
        let room = Recognizer.maxNumberDigits - digits.count
        if room < 2 || (relative <= tuning.relativeSplitWidth
            && ((width <= tuning.splitWidth && (whole.confidence >= tuning.sureConfidence || width < tuning.narrowWidth))
                || (whole.confidence >= tuning.usualConfidence && width <= tuning.singleWidths[whole.digit])))
        {
            return emitWhole(group, whole, wholePart, byOrder: byOrder)
        }
        guard !outOfWork else { return emit(whole, wholePart) }
        // Clearly one digit by its shape and the cheapest cut (the pre-gate, the
        // split gate's cheap half): no need to read any cut. Only for a group
        // the network reads surely (`preGateConfidence`): a group this wide
        // read unsurely is often two touching digits (a 1 and a 6 joined by
        // the pen read as a 0 at 0.32), and its cuts are worth reading.
        let splits = cuts(group, into: 2)
        guard let cheapest = splits.first else { return emit(whole, wholePart) }
        let shape: [Double] = [
            width, relative, Self.log(whole.confidence), width - tuning.singleWidths[whole.digit],
            Double(cheapest.crossings[0]), cheapest.extents[0], abs(cheapest.offsets[0]),
        ]
        if !tuning.preGate.isEmpty && gateFeatures == nil && whole.confidence >= tuning.preGateConfidence
            && Self.gate(shape, tuning.preGate) < tuning.preGateFloor
        {
            return emitWhole(group, whole, wholePart, byOrder: byOrder)
        }
        // Strokes in the order written, in runs of one digit each: touching
        // digits drawn with separate strokes part there, whatever their ink.
        // A run as wide as two digits holds a stroke that ran on into the next
        // digit: it is cut like a group.
        if byOrder, let runs = readByOrder(group, whole: whole, wholeWidth: group.width, runOn: splits) {
            return emit(runs: runs)
        }
        // Two digits: the few cheapest cuts that differ (at mid-height), read
        // both sides of each, the best score kept (a cut whose left side
        // already scores no better than the best so far is not read further:
        // scores only fall as sides are added, the winner is the same).
        let mid = (group.y0 + group.y1) / 2
        var tried: [Double] = []
        var two = Hypothesis(score: -.infinity)
        var pair: Split?
        for split in splits where tried.count < tuning.pairCandidates && !outOfWork {
            let x = split.at[0] - split.shear * mid
            guard tried.allSatisfy({ abs($0 - x) > tuning.distinctCuts * height }) else { continue }
            tried.append(x)
            let h = read(group, split, floor: pair == nil ? -.infinity : two.score)
            if pair == nil || h.score > two.score { two = h; pair = split }
        }
        guard let pair, !outOfWork else { return emit(whole, wholePart) }
        let wholeScore = Self.log(whole.confidence) - widthCost(group.width, digit: whole.digit)
        let features: [Double] = [
            width, relative, Self.log(whole.confidence), width - tuning.singleWidths[whole.digit],
            two.reading.count == 2 ? Self.log(two.reading[0].0.confidence) : -14,
            two.reading.count == 2 ? Self.log(two.reading[1].0.confidence) : -14,
            Double(pair.crossings[0]), pair.extents[0], abs(pair.offsets[0]),
            two.lowest.isFinite ? two.lowest : 0, two.widest.isFinite ? two.widest : 0, two.score - wholeScore,
        ]
        gateFeatures?(group.strokes, features + shape)
        guard tuning.splitGate.isEmpty ? two.score > wholeScore : Self.gate(features, tuning.splitGate) > 0 else {
            return emit(whole, wholePart)
        }
        var best = two
        let unit = min(typicalWidth, tuning.unitWidth * height)
        let guess = max(1, Int((group.width / unit).rounded()))
        for k in Set([guess - 1, guess, guess + 1]).sorted() where k >= 3 && k <= room && !outOfWork {
            guard let split = cuts(group, into: k).first else { continue }
            let h = read(group, split, floor: best.score)
            if h.score > best.score { best = h }
        }
        for (r, part) in best.reading { emit(r, part) }
    }

    /// Emits runs of strokes read by `readByOrder`; a run as wide as two
    /// digits (a stroke that ran on into the next) is read again as a group,
    /// by cuts.
    private mutating func emit(runs: [(Recognition, InkPart)]) {
        for (r, part) in runs {
            guard let box = part.box(in: drawing) else { continue }
            let runWidth = self.width(of: part.strokes)
            if part.piece < 0 && isRunOn(runWidth) {
                read(Group(strokes: part.strokes, x0: box.x0, x1: box.x1, y0: box.y0, y1: box.y1, width: runWidth),
                     byOrder: false)
            } else {
                emit(r, part)
            }
        }
    }

    /// Emits a group the exits of `read` take for one digit (narrow and read
    /// surely, or so by the pre-gate). Two touching digits whose ink overlaps
    /// can look like one digit to the network and in width (a 9 and a 0
    /// written into each other read as an 8 at 0.99): when the group has two
    /// strokes or more, the order they were written in is asked first
    /// (`readByOrder` without split strokes). Order alone (geometry, no
    /// network) rules out the strokes of one digit that cross or start left
    /// of each other (a 4, a 5's bar, a 7's crossbar), so most groups read
    /// nothing more; runs must read better than the group whole.
    private mutating func emitWhole(_ group: Group, _ whole: Recognition, _ wholePart: InkPart, byOrder: Bool) {
        if tuning.orderAtExits, byOrder, group.strokes.nonzeroBitCount >= 2 {
            readings.removeAll(keepingCapacity: true)
            readings[wholePart] = whole
            let beat = Self.log(whole.confidence) - widthCost(group.width, digit: whole.digit) + tuning.exitOrderMargin
            if let h = readByEitherOrder(group, whole: whole, wholeWidth: group.width, beat: beat), h.score > beat {
                return emit(runs: h.runs)
            }
        }
        // A stroke wide enough to have run on into the next digit (a 2 running
        // on into a 1, read as a sure 2): split where its pieces stand apart
        // as two digits would, and read (`apartAtExits`).
        if tuning.apartAtExits, byOrder, Recognizer.maxNumberDigits - digits.count >= 2,
            whole.confidence < tuning.apartExitConfidence,
            (0..<min(drawing.strokes.count, 64)).contains(where: {
                group.strokes & (1 << UInt64($0)) != 0 && width(of: 1 << UInt64($0)) > tuning.strokeSplitWidth * height
            }),
            let runs = readByOrder(group, whole: whole, wholeWidth: group.width, runOn: cuts(group, into: 2),
                                   apartOnly: true)
        {
            return emit(runs: runs)
        }
        emit(whole, wholePart)
    }

    /// Whether ink this wide holds a stroke that ran on into the next digit.
    func isRunOn(_ width: Double) -> Bool {
        width > tuning.runOnWidth * height && width > tuning.relativeRunOnWidth * typicalWidth
    }

    /// A gate's log-odds: weights · features + bias (the last weight).
    static func gate(_ features: [Double], _ weights: [Double]) -> Double {
        var sum = weights[weights.count - 1]
        for i in 0..<min(features.count, weights.count - 1) { sum += features[i] * weights[i] }
        return sum
    }

    /// What reading ink this wide (in pixels) as this digit costs: nothing up to
    /// the digit's usual width (`singleWidths` × `widthScale` heights: an 8 is
    /// narrower than a 4) and `relativeSingleWidth` typical widths, then more
    /// and more.
    func widthCost(_ width: Double, digit: Int) -> Double {
        tuning.widthCost * max(0, width / height - tuning.singleWidths[digit] * tuning.widthScale)
            + tuning.relativeWidthCost * max(0, width / typicalWidth - tuning.relativeSingleWidth)
    }

    // MARK: cuts

    struct Split {
        var shear: Double
        /// Where to cut, on u = x + shear·y, left to right.
        var at: [Double]
        /// The group's ink spans u0…u1 on this shear.
        var u0: Double
        var u1: Double
        var cost: Double
        /// Per cut: strokes crossed, height of ink between them, distance from
        /// where equal digits would meet (in pitches).
        var crossings: [Int] = []
        var extents: [Double] = []
        var offsets: [Double] = []
    }

    /// Ways to cut a group into k digits with parallel lines, cheapest first:
    /// for each slant, near each of the k − 1 places where equal digits would
    /// meet, the line crossing the fewest strokes and the shortest ink, nearest
    /// that place.
    mutating func cuts(_ group: Group, into k: Int) -> [Split] {
        var all: [Split] = []
        let margin = tuning.margin * height
        let inGroup = points(of: group.strokes)
        for shear in Self.shears where !outOfWork {
            charge(inGroup)
            var u0 = Double.infinity, u1 = -Double.infinity
            for (s, stroke) in drawing.strokes.enumerated() where group.strokes & (1 << UInt64(s)) != 0 {
                for p in stroke {
                    let u = p.x + shear * p.y
                    u0 = min(u0, u); u1 = max(u1, u)
                }
            }
            let pitch = (u1 - u0) / Double(k)
            guard pitch > 2 * margin else { continue }
            let columns = min(max(Int((u1 - u0) / height * 24), 16), 192)
            let step = (u1 - u0) / Double(columns)
            var split = Split(shear: shear, at: [], u0: u0, u1: u1, cost: 0)
            for i in 1..<k {
                let expected = u0 + Double(i) * pitch
                let from = max(expected - tuning.window * pitch, u0 + margin)
                let to = min(expected + tuning.window * pitch, u1 - margin)
                var bestAt = expected, bestCost = Double.infinity
                var bestColumn = (crossings: 0, extent: 0.0)
                var c = from
                while c <= to && !outOfWork {
                    charge(inGroup)
                    let off = (c - expected) / pitch
                    let column = self.column(group, shear: shear, at: c)
                    let cost = tuning.crossingCost * Double(max(column.crossings - 1, 0))
                        + tuning.extentCost * column.extent + tuning.positionCost * off * off
                    if cost < bestCost { bestCost = cost; bestAt = c; bestColumn = column }
                    c += step
                }
                if let last = split.at.last, bestAt <= last { bestAt = (last + to) / 2 }
                split.at.append(bestAt)
                split.cost += bestCost
                split.crossings.append(bestColumn.crossings)
                split.extents.append(bestColumn.extent)
                split.offsets.append((bestAt - expected) / pitch)
            }
            all.append(split)
        }
        return all.sorted { $0.cost < $1.cost }
    }

    /// What a cut along u = c goes through: the strokes it crosses, and the
    /// height of ink between the first and last crossing (in heights; 0 for one
    /// crossing or none). One crossing is what a cut between two touching
    /// digits goes through (where they touch, or the pen ran on); more, and
    /// tall, is a digit's body.
    func column(_ group: Group, shear: Double, at c: Double) -> (crossings: Int, extent: Double) {
        var crossings = 0
        var top = Double.infinity, bottom = -Double.infinity
        for (s, stroke) in drawing.strokes.enumerated() where group.strokes & (1 << UInt64(s)) != 0 {
            guard var a = stroke.first else { continue }
            var ua = a.x + shear * a.y
            for b in stroke.dropFirst() {
                let ub = b.x + shear * b.y
                if (ua < c) != (ub < c) {
                    crossings += 1
                    let y = a.y + (b.y - a.y) * (c - ua) / (ub - ua)
                    top = min(top, y); bottom = max(bottom, y)
                }
                a = b; ua = ub
            }
        }
        return (crossings, crossings > 1 ? (bottom - top) / height : 0)
    }
}

extension NumberSegmenter.Group {
    mutating func merge(_ o: Self) {
        strokes |= o.strokes
        x0 = min(x0, o.x0); x1 = max(x1, o.x1)
        y0 = min(y0, o.y0); y1 = max(y1, o.y1)
    }
}

/// The segmenter's constants, every length in heights of the ink. The defaults
/// were tuned on the `dev` set of `tools/train/number_reading.py` (never on its
/// held-out set); other values are for measuring.
public struct NumberReadingTuning: Sendable, Equatable {
    /// Strokes closer than this are one digit.
    public var joinGap = 0.05
    /// Two neighbouring groups closer than `piecesGap` whose ink is no wider
    /// than `piecesWidth` together are one digit that fell apart into two
    /// pieces when read together at `piecesConfidence` or more,
    /// `piecesMargin` more surely (in log-probability) than the two pieces
    /// are apart (`joiningPieces`; 0: never). Chosen on number_reading.py's
    /// `apart` set (dev's ranges, digits falling apart beside every style) and
    /// checked on dev and `wide`, 1,000 numbers each: off 903 / 988 / 968,
    /// 0.5 and 1.2 949 / 987 / 968.
    public var piecesGap = 0.5
    public var piecesWidth = 1.2
    public var piecesConfidence: Float = 0.95
    public var piecesMargin = 0.0
    /// A group lower than this and narrower than `fragmentWidth` is part of its nearest neighbour.
    public var fragmentHeight = 0.4
    public var fragmentWidth = 0.8
    /// A fragment joins the group holding the stroke drawn just before it
    /// when that group is no further from it than the nearest plus this many
    /// heights (0: the nearest always).
    public var fragmentOrderSlack = 0.25
    /// Groups wider than this are tried as two digits even when read confidently...
    public var splitWidth = 0.5
    /// ...and so are groups read with less confidence than this, unless narrower than `narrowWidth`.
    public var sureConfidence: Float = 0.8
    public var narrowWidth = 0.4
    /// Groups no wider than their digit's usual width (`singleWidths`) and read
    /// with at least this confidence are one digit, without trying any cut.
    public var usualConfidence: Float = 0.9
    /// Groups wider than this many typical widths (the median group's) are tried as two digits.
    public var relativeSplitWidth = 1.2
    /// Width above which reading ink as a digit starts to cost, per height, for
    /// 0…9: what 9 in 10 synthetic writers of tools/train/strokes.py stay under
    /// (the widest third of the height of a digit's ink), times `widthScale`;
    /// and the same relative to the typical width.
    public var singleWidths = [0.99, 0.48, 0.83, 0.79, 0.93, 0.83, 0.67, 0.86, 0.74, 0.76]
    public var widthScale = 0.8
    public var widthCost = 3.0
    public var relativeSingleWidth = 2.5
    public var relativeWidthCost = 3.0
    /// What a cut costs: a base, plus per stroke it crosses beyond one, plus per
    /// height of ink between the first and last crossing.
    public var cutCost = 0.0
    public var crossingCost = 0.3
    public var extentCost = 1.0
    /// A group is guessed to hold its width over this (or the typical width, if
    /// smaller) digits; k digits are tried for that guess and one either side.
    public var unitWidth = 0.65
    /// Cuts are looked for within this share of a digit's pitch of where equal
    /// digits would meet, and cost `positionCost` per (distance / pitch)² from it.
    public var window = 0.4
    public var positionCost = 1.0
    /// A side of a cut lower than this costs `pieceHeightCost` per height missing.
    public var pieceHeight = 0.8
    /// A run of strokes (`readByOrder`) lower than this costs
    /// `pieceHeightCost` per height missing: lower than a side of a cut, as
    /// a small digit of an uneven line (a short 1 after a 5) is its own
    /// strokes.
    public var runPieceHeight = 0.7
    public var pieceHeightCost = 5.0
    /// A run following another while one hangs beside the other
    /// (`NumberSegmenter.hangs`: its foot more than `hangDrop` heights above
    /// the other's, its top no more than `hangTop` below the other's, itself
    /// lower than `hangShare` heights) costs this more as the next digit
    /// (`orderCost`: a 9's loop and its stem read 01), and two such
    /// neighbouring groups no further apart than `stackGap` are one group
    /// (`joinStacked`; 0: neither).
    public var hangCost = 2.0
    public var hangDrop = 0.3
    public var hangTop = 0.1
    public var hangShare = 0.8
    /// The split gate: weights of its features (see `NumberSegmenter.read`), then
    /// the bias; empty: compare the scores of one and two digits instead.
    /// Fitted by `tools/train/number_reading.py --fit-gate --gate-mnist 3000`:
    /// on synthetic numbers and on numbers of MNIST's training digits traced
    /// into strokes, so that real writers' shapes are in what it learns
    /// (docs/recognition.md, "The split gate fitted on real shapes too").
    public var splitGate = [
        6.2918, -0.0318, -2.6799, -1.8488, -0.6756, 0.1185, -1.1017, 0.0079, 3.3366, -0.254, -0.6991, 0.3058, -9.3779,
    ]
    /// The pre-gate: weights of the shape features (see `NumberSegmenter.read`),
    /// then the bias; a group whose log-odds of being more than one digit are
    /// below `preGateFloor` is read as one without trying any cut.
    public var preGate = [8.503, 0.275, -2.6795, -3.6896, -2.3764, 0.9607, -1.9296, -10.3582]
    public var preGateFloor = -2.75
    /// ...and only for groups read whole with at least this confidence (0:
    /// any). Dev set, `orderSlack` −0.03: 0 / 0.7 / 0.9 / 0.95 → 1917 / 1917 /
    /// 1919 / 1919 of 2,000 (late numbers 175 of 200 each); with `orderSlack`
    /// 0.02: 0 / 0.9 → 1911 / 1913. The 300 six-digit bench numbers read
    /// about 2 % more parts (2,061 → 2,100 with the refitted gates).
    public var preGateConfidence: Float = 0.9
    /// Cuts into two tried per group, and how far apart (at mid-height) they must be.
    public var pairCandidates = 3
    public var distinctCuts = 0.08
    /// How far from a group's ends a cut stays.
    public var margin = 0.1

    /// Stroke order (`NumberSegmenter.readByOrder`): a run of strokes lying
    /// left of the next run's by less than this (in heights, in the band where
    /// it does least) costs `orderCost` per height short; a reading by runs wins
    /// over the whole group when its score is higher by `orderMargin`.
    /// Negative: touching digits' ink meets and overlaps a little (a slanted
    /// 1's foot under the 8 after it), so the next digit's edges may reach
    /// back over the previous one's by up to 0.03 heights at no cost; a 4's
    /// downstroke or a 7's crossbar lies further inside its digit. Dev set,
    /// `preGateConfidence` 0: 0.02 (before) / −0.03 → 1911 / 1917 of 2,000;
    /// with it 0.9: 0.02 / −0.02 / −0.03 / −0.04 / −0.06 → 1913 / 1919 / 1919 /
    /// 1919 / 1918 (too many 9 / 9 / 9 / 10 / 11; late numbers 174 / 174 / 175
    /// / 175 / 175 of 200).
    public var orderSlack = -0.03
    public var orderCost = 10.0
    public var orderMargin = 0.0
    /// A run of strokes that parts in two standing as two digits would (in
    /// order at no cost, both at least `innerHeight` heights tall:
    /// `NumberSegmenter.standApart`) costs this: it holds two digits, however
    /// surely it reads as one (0: no cost). Dev set, 0 / 0.5 / 1 / 2 (height
    /// 0.6) → 1919 / 1921 / 1921 / 1920 of 2,000, late 175 / 175 / 176 / 176;
    /// `innerHeight` 0.5 / 0.6 / 0.7 (cost 1) → 1921 / 1921 / 1922, late 174 /
    /// 176 / 175 (0.7: three numbers fixed, none broken).
    public var innerOrderCost = 1.0
    /// What it costs for a run to follow another as the next digit when
    /// their boxes share less than `stackedShare` of the shorter's height.
    public var stackedOrderCost = 2.0
    public var stackedShare = 0.5
    public var innerHeight = 0.7
    /// Most strokes in one run (one digit).
    public var runStrokes = 3
    /// A run of strokes wider than this (in heights, and in typical widths)
    /// holds a stroke that runs on into the next digit: it is cut geometrically.
    /// (No typical-width condition: in a number of touching digits most groups
    /// hold two digits, and the typical width is theirs; 1.0 before, dev set
    /// 90.75 → 91.10 % with `strokeSplitWidth` 0.6, clean numbers unchanged.)
    public var runOnWidth = 0.5
    public var relativeRunOnWidth = 0.0
    /// A stroke that wide is also tried split in two where each of this many
    /// of the cheapest cuts into two crosses it (0: never split a stroke).
    public var strokeSplits = 3
    /// Strokes wider than this (in heights; the widest third of the height)
    /// are tried split (0.8 before; 0.6 catches two narrow digits joined;
    /// 0.45 a 1 the pen ran on into from a neighbour's stem, 20410 read
    /// 2040: dev set 0.6 / 0.5 / 0.45 / 0.2 → 1904 / 1909 / 1910 / 1910 of
    /// 2,000, numbers the pen ran on in 171 → 177 of 214, the rest the same).
    public var strokeSplitWidth = 0.45
    /// A reading with a piece wider than this (in heights) is left to the cuts:
    /// the pen ran on again.
    public var pieceWidth = 1.2
    /// A digit the candidates network (`Recognizer.candidates`) settled on
    /// less surely than this is read again by `numbers` and the single-digit
    /// network, and gets what the two agree on (`NumberSegmenter.secondReader`).
    /// Dev / `wide` / MNIST traced: 0.99 1979 / 1945 / 1868, 0.999 1979 /
    /// 1946 / 1880 of 2,000; 4–6 % of the synthetic writers' digits are read
    /// again, 10 % of the traced MNIST ones (docs/recognition.md, "Numbers").
    public var candidateRereadBelow: Float = 0.999
    /// The most work one reading may do (`NumberSegmenter.charge`: points
    /// visited, and `readWork` per candidate read): about 25–55 ms here at
    /// worst (`number_reading.py --worst`), where 64 scribbled strokes took
    /// 1.8 s without it. The dev, `wide` and late sets' most costly number
    /// takes 3.8 million, under a third of it, so no handwritten number's
    /// reading changes (all 6,200 read the same with and without it); a pen
    /// reporting twice as often as the synthetic writers costs about twice
    /// as much, still under it.
    public var workLimit = 12_000_000
    /// A group's strokes are also read by runs in the order of their left
    /// edges, and that reading wins when it scores better than the order
    /// written by this (.infinity: never). A digit's stroke written after
    /// the next digit (a 4's downstroke, a 5's bar, a 7's crossbar) is no
    /// run of its digit in the order written, but is one left to right.
    /// Dev / `wide` late+touching 86 / 80 → 97 / 86 (0.5: 96 / 87; 1: 93 /
    /// 86), held-out 83 → 98 of 106; the main sets read byte for byte the
    /// same.
    public var leftToRightMargin = 0.0
    /// A stroke whose box's larger side is under this share of the tallest
    /// stroke's height is a tap or a tick of the pen, no digit and no part of one,
    /// and is left out (`Recognizer.withoutSpecks`; 0: never). Dev numbers
    /// with a tap added anywhere in the number: 1911 of 2,000 read right
    /// without it, 1949 with it; a tick 1905 → 1949; a tap after the last
    /// digit 1832 → 1949 (`number_reading.py --marks`). Dev itself 1947 →
    /// 1949 (two dotted zeros), `wide` the same; 0.03 leaves some ticks,
    /// 0.1 gives the same.
    public var speckSize = Recognizer.speckSize
    /// A candidate read's work beside its points: the network, about as
    /// long as visiting a thousand points.
    public var readWork = 1_000
    /// A reading with a split stroke must beat the one without by this.
    public var strokeSplitMargin = 1.0
    /// ...and a reading with other splits by this.
    public var splitOverSplit = 0.0
    /// A reading with a split stroke beats the one without by this instead of
    /// `strokeSplitMargin` when the pieces at every split stand apart as two digits
    /// would (`NumberSegmenter.standApart`: both at least `innerHeight` tall,
    /// the later right of the earlier in every band they share). Dev set 0.5 /
    /// 0 / −0.5 → 1927 / 1931 / 1929 of 2,000 with the number networks of
    /// then. With the retrained ones of 2026-12-03 the rule cuts real
    /// writers' digits in two: off (the same margin as any split, and no
    /// asking at the exits, below), dev 1979 / 1979, `wide` 1945 / 1946,
    /// MNIST traced 1872 / 1880 of 2,000 (docs/recognition.md, "Numbers").
    public var apartSplitMargin = 1.0
    /// ...and the two runs at the split are read at least this surely.
    public var apartConfidence: Float = 0.9
    /// Groups the exits take for one digit are also tried with a stroke wider
    /// than `strokeSplitWidth` split where its pieces stand apart (off: see
    /// `apartSplitMargin`).
    public var apartAtExits = false
    /// ...when the group read whole is read less surely than this: most
    /// digits are read at 0.9999 and more, a 2 run on into a 1 at 0.99 (this
    /// keeps the exits cheap: 85 of the bench's 1,800 digits are asked).
    public var apartExitConfidence: Float = 0.999
    /// A run-on stroke is also tried split dropping each of its this many
    /// longest straight stretches at least `stretchLength` heights long (0: none).
    public var stretchSplits = 3
    public var stretchLength = 0.1
    /// Before grouping, a stroke wider than `strokeSplitWidth` whose longest
    /// straight stretch looks like the pen's way from one digit into the next
    /// is read as two strokes without it (`NumberSegmenter.liftingPensWays`):
    /// a logistic model over the stretch's length, how far right it goes, and
    /// the two pieces around it (their overlap side to side, the shorter one's
    /// height, how far down the way goes, their shared height), all in
    /// heights; lifted when its log-odds are above `wayFloor` (empty: never).
    /// Fitted by `number_reading.py --fit-way` (numbers of a seed of their
    /// own); the floor chosen on dev and `wide` (with `wayPiece` 0): −1 / 0 / 0.7 / 1.4 / 2.9 →
    /// 1944 / 1963 / 1962 / 1960 / 1957 and 1900 / 1910 / 1907 / 1906 / 1901
    /// of 2,000, against 1950 and 1897 without.
    public var wayWeights = [1.5858, 2.2265, -3.1345, 1.1779, -2.2329, 2.301, -4.8826]
    public var wayFloor = 0.0
    /// ...and when each piece either side of the stretch is at least this
    /// big (its box's larger side, in heights): a digit's worth of ink, or a
    /// 5's bar, not a 7's serif before its bar (a 7 lifted into a 1). Dev
    /// and `wide` 0 / 0.2 / 0.35 / 0.5 → 1963 / 1963 / 1964 / 1962 and
    /// 1910 / 1911 / 1911 / 1910.
    public var wayPiece = 0.35
    /// A split cutting through such a straight stretch (rather than dropping
    /// it) must read better by this (`NumberSegmenter.throughCost`; 0: no cost).
    public var throughCost = 0.5
    /// Segments turning less than this (cosine) from the split one are the
    /// same straight stretch (the pen's way from one digit to the next).
    /// 0.99 (8°; was 0.95, 18°): the stretch stops where the pen turns into
    /// the digit, so less of a digit's own ink is dropped with the pen's way
    /// (dev set 0.95/0.97/0.98/0.99/0.995 → 1849/1850/1854/1854/1854).
    public var straightTurn = 0.99
    /// Two splits at once (a stroke through three digits, two run-on strokes
    /// in one group) are tried from this many seeds, the longest straight
    /// stretches (and the single split that won), each with every other split
    /// place (0: one split at most).
    public var multiSplitSeeds = 1
    /// ...when the group has two strokes wider than `strokeSplitWidth`, or
    /// one wider than this (in heights: three digits' worth).
    public var multiSplitWidth = 1.0
    /// Three splits at once (`NumberSegmenter.readByOrder`): when two won,
    /// each other split place is tried with them (a stroke through four
    /// digits). Dev set 1922 → 1923 (one number fixed, 5075 read 508 → 5015,
    /// none broken; late 175 both).
    public var thirdSplit = true
    /// Groups of two strokes or more that the exits for one digit take are
    /// first read by stroke order (`NumberSegmenter.emitWhole`).
    public var orderAtExits = true
    /// ...and the runs must read better than the group whole by this.
    public var exitOrderMargin = 0.0
    /// A digit read lower than this share of the number's median digit is a
    /// stroke of its neighbour (`NumberSegmenter.dropFlatDigits`; 0: never).
    public var flatDigit = 0.3
    /// ...and so is a digit read less surely than this beside one read more
    /// surely (`NumberSegmenter.dropFlatDigits`; 0: never).
    public var strayConfidence: Float = 0.3
    /// Neighbouring groups sharing less than this of the shorter one's
    /// height, one above the other, no further apart than `stackGap` heights,
    /// are one digit (`NumberSegmenter.joinStacked`; 0: never).
    public var stackOverlap = 0.7
    public var stackGap = 0.15
    /// Neighbouring groups that overlap side to side by at least this share
    /// of the narrower, on every slant (`across`), no further apart than
    /// `stackGap` heights, are one group: digits of a number stand side by
    /// side, each clear of the next on some slant (0: off).
    public var sideOverlap = 0.15

    public init() {}

    public static let standard = NumberReadingTuning()
}
