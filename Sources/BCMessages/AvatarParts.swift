/// The nested types of t=34 `BCResponse.Avatar`, modelled on a captured message (see `Avatar`).
///
/// Every key is optional and every leaf forcible. Ids are strings (`"87"`, `"tall"`, `"female"`), `updated_at`
/// is unix seconds (`0` when unset), and colours are 24-bit RGB integers written in decimal (`"16777215"`
/// is white), in one capture as strings, in another as numbers.
extension BCResponse.Avatar {
    /// `avatar`: what the avatar looks like and how it is framed.
    public struct State: Hashable, Sendable, Codable {
        /// `wipe_position`: where the avatar's small window (the "wipe") sits; a key of `wipe_cameras`.
        @OptionalForcibleInt public var wipePosition: Int?
        /// `is_fullscreen`: the avatar fills the screen instead of a wipe.
        @OptionalForcibleBool public var isFullscreen: Bool?
        /// `background`: the backdrop behind the avatar.
        public var background: Item?
        /// `asset_bundle_url`: the base URL of the Unity asset bundles the parts name.
        @OptionalForcibleString public var assetBundleURL: String?
        /// `camera`: the full-screen camera, as the wire writes it (`"orth,1.41,0.45"`: projection and two numbers).
        @OptionalForcibleString public var camera: String?
        /// `body`: the avatar itself, part by part.
        public var body: Body?
        /// `wipe_cameras`: the camera for each wipe position (`{"0":"orth,1.41,0.45","1":"orth,1.52,0.275"}`).
        @Forcible public var wipeCameras: [String: String]?
        /// `enabled`: the streamer shows an avatar.
        @OptionalForcibleBool public var isEnabled: Bool?

        public init(
            wipePosition: Int? = nil, isFullscreen: Bool? = nil, background: Item? = nil, assetBundleURL: String? = nil,
            camera: String? = nil, body: Body? = nil, wipeCameras: [String: String]? = nil, isEnabled: Bool? = nil
        ) {
            self.wipePosition = wipePosition
            self.isFullscreen = isFullscreen
            self.background = background
            self.assetBundleURL = assetBundleURL
            self.camera = camera
            self.body = body
            self.wipeCameras = wipeCameras
            self.isEnabled = isEnabled
        }

        enum CodingKeys: String, CodingKey {
            case wipePosition = "wipe_position"
            case isFullscreen = "is_fullscreen"
            case background
            case assetBundleURL = "asset_bundle_url"
            case camera
            case body
            case wipeCameras = "wipe_cameras"
            case isEnabled = "enabled"
        }
    }

    /// `body`: the avatar's body type, colours and the item worn in each slot.
    public struct Body: Hashable, Sendable, Codable {
        /// `id`: the body type (`"female"`, `"male"`).
        @OptionalForcibleString public var id: String?
        /// `icon_url`: the body type's icon.
        @OptionalForcibleString public var iconURL: String?
        /// `asset_bundle_name`: the body's asset bundle (`"body_f_0001"`).
        @OptionalForcibleString public var assetBundleName: String?
        /// `asset_bundle_prefab_name`: the body's prefab in that bundle.
        @OptionalForcibleString public var assetBundlePrefabName: String?
        /// `skin_color`: the skin colour, 24-bit RGB.
        @OptionalForcibleInt public var skinColor: Int?
        /// `hair_color`: the hair colour gradient.
        public var hairColor: HairColor?
        /// `hair_color_percentage`: where on the gradient the hair colour sits, 0...1.
        @OptionalForcibleDouble public var hairColorPercentage: Double?
        /// `head`: the head shape.
        public var head: Item?
        /// `eye`: the eyes, with their colour.
        public var eye: Item?
        /// `mouth`: the mouth.
        public var mouth: Item?
        /// `hair`: the hairstyle.
        public var hair: Item?
        /// `proportion`: the body proportion (`"tall"`...).
        public var proportion: Item?
        /// `clothes`: the outfit, with its colour.
        public var clothes: Item?
        /// `hat`: the hat, with its colour; absent when none is worn.
        public var hat: Item?

        public init(
            id: String? = nil, iconURL: String? = nil, assetBundleName: String? = nil,
            assetBundlePrefabName: String? = nil, skinColor: Int? = nil, hairColor: HairColor? = nil,
            hairColorPercentage: Double? = nil, head: Item? = nil, eye: Item? = nil, mouth: Item? = nil,
            hair: Item? = nil, proportion: Item? = nil, clothes: Item? = nil, hat: Item? = nil
        ) {
            self.id = id
            self.iconURL = iconURL
            self.assetBundleName = assetBundleName
            self.assetBundlePrefabName = assetBundlePrefabName
            self.skinColor = skinColor
            self.hairColor = hairColor
            self.hairColorPercentage = hairColorPercentage
            self.head = head
            self.eye = eye
            self.mouth = mouth
            self.hair = hair
            self.proportion = proportion
            self.clothes = clothes
            self.hat = hat
        }

        enum CodingKeys: String, CodingKey {
            case id
            case iconURL = "icon_url"
            case assetBundleName = "asset_bundle_name"
            case assetBundlePrefabName = "asset_bundle_prefab_name"
            case skinColor = "skin_color"
            case hairColor = "hair_color"
            case hairColorPercentage = "hair_color_percentage"
            case head
            case eye
            case mouth
            case hair
            case proportion
            case clothes
            case hat
        }
    }

    /// `hair_color`: a gradient of colours.
    public struct HairColor: Hashable, Sendable, Codable {
        /// `gradient`: the gradient's colours, 24-bit RGB; on the wire one array may mix strings and numbers.
        @OptionalForcibleArray public var gradient: [Int]?

        public init(gradient: [Int]? = nil) {
            self.gradient = gradient
        }
    }

    /// One catalogue item: the background or a body slot (head, eye, mouth, hair, proportion, clothes, hat).
    /// The slots share this one shape; each uses only some keys (a background has `url`, a hair its bundle).
    public struct Item: Hashable, Sendable, Codable {
        /// `id`: the item's id (`"87"`, `"tall"`).
        @OptionalForcibleString public var id: String?
        /// `icon_url`: the item's icon in the avatar editor.
        @OptionalForcibleString public var iconURL: String?
        /// `url`: the full image (backgrounds).
        @OptionalForcibleString public var url: String?
        /// `updated_at`: when the item last changed, unix seconds; `0` when unset.
        @OptionalForcibleInt public var updatedAt: Int?
        /// `asset_bundle_name`: the item's asset bundle.
        @OptionalForcibleString public var assetBundleName: String?
        /// `asset_bundle_prefab_name`: the item's prefab in that bundle.
        @OptionalForcibleString public var assetBundlePrefabName: String?
        /// `asset_bundle_prefab_postfix`: the suffix that picks this item's prefab (`"_02.prefab"`).
        @OptionalForcibleString public var assetBundlePrefabPostfix: String?
        /// `color`: the colour chosen for the item (eyes, clothes, hat).
        public var color: ItemColor?

        public init(
            id: String? = nil, iconURL: String? = nil, url: String? = nil, updatedAt: Int? = nil,
            assetBundleName: String? = nil, assetBundlePrefabName: String? = nil,
            assetBundlePrefabPostfix: String? = nil, color: ItemColor? = nil
        ) {
            self.id = id
            self.iconURL = iconURL
            self.url = url
            self.updatedAt = updatedAt
            self.assetBundleName = assetBundleName
            self.assetBundlePrefabName = assetBundlePrefabName
            self.assetBundlePrefabPostfix = assetBundlePrefabPostfix
            self.color = color
        }

        enum CodingKeys: String, CodingKey {
            case id
            case iconURL = "icon_url"
            case url
            case updatedAt = "updated_at"
            case assetBundleName = "asset_bundle_name"
            case assetBundlePrefabName = "asset_bundle_prefab_name"
            case assetBundlePrefabPostfix = "asset_bundle_prefab_postfix"
            case color
        }
    }

    /// `color`: an item's colour, and the prefab that renders the item in it.
    public struct ItemColor: Hashable, Sendable, Codable {
        /// `value`: the colour, 24-bit RGB.
        @OptionalForcibleInt public var value: Int?
        /// `asset_bundle_name`: the asset bundle for this colour.
        @OptionalForcibleString public var assetBundleName: String?
        /// `asset_bundle_prefab_name`: the prefab for this colour.
        @OptionalForcibleString public var assetBundlePrefabName: String?
        /// `asset_bundle_prefab_postfix`: the suffix that picks the prefab for this colour (`"_08_01.prefab"`).
        @OptionalForcibleString public var assetBundlePrefabPostfix: String?
        /// `setup`: the whole-outfit bundle for this colour (clothes).
        public var setup: AssetBundle?

        public init(
            value: Int? = nil, assetBundleName: String? = nil, assetBundlePrefabName: String? = nil,
            assetBundlePrefabPostfix: String? = nil, setup: AssetBundle? = nil
        ) {
            self.value = value
            self.assetBundleName = assetBundleName
            self.assetBundlePrefabName = assetBundlePrefabName
            self.assetBundlePrefabPostfix = assetBundlePrefabPostfix
            self.setup = setup
        }

        enum CodingKeys: String, CodingKey {
            case value
            case assetBundleName = "asset_bundle_name"
            case assetBundlePrefabName = "asset_bundle_prefab_name"
            case assetBundlePrefabPostfix = "asset_bundle_prefab_postfix"
            case setup
        }
    }

    /// A Unity asset bundle and the prefab in it.
    public struct AssetBundle: Hashable, Sendable, Codable {
        /// `asset_bundle_name`: the bundle (`"setup_f_0036"`).
        @OptionalForcibleString public var assetBundleName: String?
        /// `asset_bundle_prefab_name`: the prefab in the bundle (`"setup_f_0036_01.prefab"`).
        @OptionalForcibleString public var assetBundlePrefabName: String?

        public init(assetBundleName: String? = nil, assetBundlePrefabName: String? = nil) {
            self.assetBundleName = assetBundleName
            self.assetBundlePrefabName = assetBundlePrefabName
        }

        enum CodingKeys: String, CodingKey {
            case assetBundleName = "asset_bundle_name"
            case assetBundlePrefabName = "asset_bundle_prefab_name"
        }
    }
}
