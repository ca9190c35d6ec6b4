import Multihead
import MultiheadControl
import MultiheadServerControl
import MultiheadTesting
import MultiheadX11

// The codes of the errors below the protocol, as `CommandFailure` reads them: each error's own case name
// (`X11Error.code` and its kind) when the table (`ControlErrorCode`) knows it, else `internal`. Conformed
// here, where the protocol meets X and the kit, so that MultiheadControl imports neither.

extension X11Error: ControlCodedError {
    /// The error's case as the table names it.
    package var controlCode: ControlErrorCode { ControlErrorCode(rawValue: code) ?? .internal }
}

extension VirtualServerError: ControlCodedError {
    /// The error's case as the table names it.
    package var controlCode: ControlErrorCode { ControlErrorCode(rawValue: code) ?? .internal }
}

extension ServerControlError: ControlCodedError {
    /// Every case is a person's mistake: a name, frame, rate, point or key the server cannot take.
    package var controlCode: ControlErrorCode { ControlErrorCode(rawValue: code) ?? .internal }
}

extension BitmapError: ControlCodedError {
    /// A PNG that could not be read, or not written.
    package var controlCode: ControlErrorCode {
        if case .cannotRead = self { .cannotRead } else { .cannotWrite }
    }
}
