package auth

// Client-facing messages of authentication, exactly as SPEC.md spells them
// where it does.
const (
	MsgUnauthorized          = "Unauthorized"
	MsgInvalidCredentials    = "Invalid credentials"
	MsgInvalidRefresh        = "Invalid or expired refresh token"
	MsgKeyInvalid            = "Invalid or revoked API key"
	MsgKeyOwnerInactive      = "API key owner is inactive or not found"
	MsgKeyValidationFailed   = "API key validation failed; retry the request"
	MsgMissingTenantHeader   = "Missing required header: x-tenant-id"
	MsgInvalidTenantHeader   = "The x-tenant-id header must be a valid UUID"
	MsgNotTenantMember       = "You are not a member of this tenant"
	MsgRequiredPermissionsFm = "Required permissions: %s"
)
