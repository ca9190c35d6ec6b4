internal import CXlib
import Multihead

/// The turn in RandR's words: the model's `MonitorRotation` knows no X.
extension MonitorRotation {
    /// RandR's rotation bit.
    var randr: UInt16 {
        switch self {
        case .normal: UInt16(RR_Rotate_0)
        case .left: UInt16(RR_Rotate_90)
        case .inverted: UInt16(RR_Rotate_180)
        case .right: UInt16(RR_Rotate_270)
        }
    }

    /// The turn RandR's rotation bits say (a reflection aside); nil for bits that name none.
    init?(randr bits: UInt16) {
        switch Int32(bits) & (RR_Rotate_0 | RR_Rotate_90 | RR_Rotate_180 | RR_Rotate_270) {
        case RR_Rotate_0: self = .normal
        case RR_Rotate_90: self = .left
        case RR_Rotate_180: self = .inverted
        case RR_Rotate_270: self = .right
        default: return nil
        }
    }
}
