internal import CXlib

/// The request ranges of frames sent and not yet checked for X errors, and which errors of theirs end
/// the presentation. No frame waits for the server: a frame's errors are claimed once the server is
/// known to have processed its requests.
struct FrameErrorLedger {
    /// Frames sent and not yet checked, oldest first; bounded, as a frame's errors are claimed when the
    /// server has answered anything after it.
    private(set) var unchecked: [Range<UInt>] = []

    /// A frame's requests, `[first, end)`.
    mutating func record(_ frame: Range<UInt>) {
        guard !frame.isEmpty else { return }
        if unchecked.count >= 64 { unchecked.removeFirst() }
        unchecked.append(frame)
    }

    /// Claims the errors of what the server has processed (requests up to `processed`), taking each
    /// frame's part with `take(from, to)`; a frame the server is still processing keeps its rest.
    mutating func claim(processed: UInt, anyRecorded: Bool, take: (UInt, UInt) -> [XErrorRecord]) -> [XErrorRecord] {
        guard !unchecked.isEmpty else { return [] }
        // No error recorded at all (a frame's usual case): what the server processed is done with.
        guard anyRecorded else {
            while let r = unchecked.first, r.upperBound <= processed + 1 { unchecked.removeFirst() }
            if let r = unchecked.first, r.lowerBound <= processed { unchecked[0] = (processed + 1)..<r.upperBound }
            return []
        }
        var errors: [XErrorRecord] = []
        while let r = unchecked.first, r.lowerBound <= processed {
            let upTo = min(r.upperBound, processed + 1)
            errors += take(r.lowerBound, upTo)
            guard upTo == r.upperBound else {
                unchecked[0] = upTo..<r.upperBound
                break
            }
            unchecked.removeFirst()
        }
        return errors
    }

    /// Whether an error of a frame's requests ends the presentation: a drawing request the server refused
    /// (a put the visual does not take, say). A window destroyed under us (BadWindow, BadDrawable) does
    /// not: the backend forgets it and shows it again; nor does a focus that raced another client.
    static func isFatal(_ e: XErrorRecord) -> Bool {
        e.code != UInt8(BadWindow) && e.code != UInt8(BadDrawable) && e.majorOpcode != UInt8(X_SetInputFocus)
    }
}
