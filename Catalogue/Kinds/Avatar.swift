import BCKindsGenerator

extension Catalogue {
    static let avatar = Kind(34, "avatar", "streamer avatar (emomo) state", app: nil, .captured, Struct(
        "Avatar",
        doc: """
            t=34 (not in the app): the streamer's avatar ("emomo") state, sent whole whenever it changes.

            Captured (2018, quoted in a third-party comment viewer, MultiCommentViewer's Mirrativ plugin). The state
            is a large nested object whose leaves come as numbers or strings at random (`"updated_at":"1545894000"`
            beside `"updated_at":0`, `"gradient":["14521944",14796465]`), so every leaf is forcible, and every key
            below `avatar` is optional: the avatar system has grown since. Ids are strings (`"87"`, `"tall"`,
            `"female"`), `updated_at` is unix seconds (`0` when unset), and colours are 24-bit RGB integers written
            in decimal (`"16777215"` is white), in one capture as strings, in another as numbers.
            """,
        [
            .required("avatar", "state", .object("State"), "the avatar's whole state."),
        ],
        nested: [
            Struct(
                "State",
                doc: """
                    `avatar`: what the avatar looks like and how it is framed.
                    """,
                [
                    .optional("wipe_position", "wipePosition", .int,
                        "where the avatar's small window (the \"wipe\") sits; a key of `wipe_cameras`."),
                    .optional("is_fullscreen", "isFullscreen", .bool, "the avatar fills the screen instead of a wipe."),
                    .optional("background", "background", .object("Item"), "the backdrop behind the avatar."),
                    .optional("asset_bundle_url", "assetBundleURL", .string,
                        "the base URL of the Unity asset bundles the parts name."),
                    .optional("camera", "camera", .string,
                        "the full-screen camera, as the wire writes it (`\"orth,1.41,0.45\"`: projection and two numbers)."),
                    .optional("body", "body", .object("Body"), "the avatar itself, part by part."),
                    .optional("wipe_cameras", "wipeCameras", .stringDictionary,
                        "the camera for each wipe position (`{\"0\":\"orth,1.41,0.45\",\"1\":\"orth,1.52,0.275\"}`)."),
                    .optional("enabled", "isEnabled", .bool, "the streamer shows an avatar."),
                ]),
            Struct(
                "Body",
                doc: """
                    `body`: the avatar's body type, colours and the item worn in each slot.
                    """,
                [
                    .optional("id", "id", .string, "the body type (`\"female\"`, `\"male\"`)."),
                    .optional("icon_url", "iconURL", .string, "the body type's icon."),
                    .optional("asset_bundle_name", "assetBundleName", .string,
                        "the body's asset bundle (`\"body_f_0001\"`)."),
                    .optional("asset_bundle_prefab_name", "assetBundlePrefabName", .string,
                        "the body's prefab in that bundle."),
                    .optional("skin_color", "skinColor", .int, "the skin colour, 24-bit RGB."),
                    .optional("hair_color", "hairColor", .object("HairColor"), "the hair colour gradient."),
                    .optional("hair_color_percentage", "hairColorPercentage", .double,
                        "where on the gradient the hair colour sits, 0...1."),
                    .optional("head", "head", .object("Item"), "the head shape."),
                    .optional("eye", "eye", .object("Item"), "the eyes, with their colour."),
                    .optional("mouth", "mouth", .object("Item"), "the mouth."),
                    .optional("hair", "hair", .object("Item"), "the hairstyle."),
                    .optional("proportion", "proportion", .object("Item"), "the body proportion (`\"tall\"`...)."),
                    .optional("clothes", "clothes", .object("Item"), "the outfit, with its colour."),
                    .optional("hat", "hat", .object("Item"), "the hat, with its colour; absent when none is worn."),
                ]),
            Struct(
                "HairColor",
                doc: """
                    `hair_color`: a gradient of colours.
                    """,
                [
                    .optional("gradient", "gradient", .ints,
                        "the gradient's colours, 24-bit RGB; on the wire one array may mix strings and numbers."),
                ]),
            Struct(
                "Item",
                doc: """
                    One catalogue item: the background or a body slot (head, eye, mouth, hair, proportion, clothes, hat).
                    The slots share this one shape; each uses only some keys (a background has `url`, a hair its bundle).
                    """,
                [
                    .optional("id", "id", .string, "the item's id (`\"87\"`, `\"tall\"`)."),
                    .optional("icon_url", "iconURL", .string, "the item's icon in the avatar editor."),
                    .optional("url", "url", .string, "the full image (backgrounds)."),
                    .optional("updated_at", "updatedAt", .int,
                        "when the item last changed, unix seconds; `0` when unset."),
                    .optional("asset_bundle_name", "assetBundleName", .string, "the item's asset bundle."),
                    .optional("asset_bundle_prefab_name", "assetBundlePrefabName", .string,
                        "the item's prefab in that bundle."),
                    .optional("asset_bundle_prefab_postfix", "assetBundlePrefabPostfix", .string,
                        "the suffix that picks this item's prefab (`\"_02.prefab\"`)."),
                    .optional("color", "color", .object("ItemColor"),
                        "the colour chosen for the item (eyes, clothes, hat)."),
                ]),
            Struct(
                "ItemColor",
                doc: """
                    `color`: an item's colour, and the prefab that renders the item in it.
                    """,
                [
                    .optional("value", "value", .int, "the colour, 24-bit RGB."),
                    .optional("asset_bundle_name", "assetBundleName", .string, "the asset bundle for this colour."),
                    .optional("asset_bundle_prefab_name", "assetBundlePrefabName", .string,
                        "the prefab for this colour."),
                    .optional("asset_bundle_prefab_postfix", "assetBundlePrefabPostfix", .string,
                        "the suffix that picks the prefab for this colour (`\"_08_01.prefab\"`)."),
                    .optional("setup", "setup", .object("AssetBundle"),
                        "the whole-outfit bundle for this colour (clothes)."),
                ]),
            Struct(
                "AssetBundle",
                doc: """
                    A Unity asset bundle and the prefab in it.
                    """,
                [
                    .optional("asset_bundle_name", "assetBundleName", .string, "the bundle (`\"setup_f_0036\"`)."),
                    .optional("asset_bundle_prefab_name", "assetBundlePrefabName", .string,
                        "the prefab in the bundle (`\"setup_f_0036_01.prefab\"`)."),
                ]),
        ]))
}
