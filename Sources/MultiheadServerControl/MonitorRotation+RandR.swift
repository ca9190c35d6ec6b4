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
}
