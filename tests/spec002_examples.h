// The JSON examples of the declarative "Actions" language specification, copied verbatim:
// lines 34-54, 95-121, 156-198 and 228-250 of the spec.
#pragma once

namespace spec002 {

// "Anatomy of an Action": PlayCard
inline const char* kPlayCard = R"SPEC(
{
  "actions": [
    {
      "name": "PlayCard",
      "requires_target": "$zone.@MainBoard",
      "mutations": [
        {
          "target": "$entity.selected",
          "destination": "$target.zone",
          "operation": "MoveZone"
        },
        {
          "target": "$player.current",
          "property": "mana",
          "operation": "-",
          "value": "$entity.selected.cost"
        }
      ]
    }
  ]
}
)SPEC";

// "Mutating Entities and Zones": HealingPotion
inline const char* kHealingPotion = R"SPEC(
{
  "entities": [
    {
      "id": "HealingPotion",
      "type": "card",
      "actions": [
        {
          "name": "Consume",
          "requires_target": "$entity.piece",
          "mutations": [
            {
              "target": "$target.entity",
              "property": "current_health",
              "operation": "+",
              "value": 2
            },
            {
              "target": "$entity.self",
              "destination": "$zone.@DiscardPile",
              "operation": "MoveZone"
            }
          ]
        }
      ]
    }
  ]
}
)SPEC";

// "Reactions": IronArmor and TrapCard
inline const char* kReactions = R"SPEC(
{
  "entities": [
    {
      "id": "IronArmor",
      "type": "equipment",
      "reactions": [
        {
          "name": "PreventDamage",
          "trigger": "$Before.$DamageTaken",
          "condition": "$entity.self.is_equipped == true",
          "mutations": [
            {
              "target": "$event.damage_value",
              "operation": "-",
              "value": 1
            }
          ]
        }
      ]
    },
    {
      "id": "TrapCard",
      "type": "card",
      "actions": [
        {
          "name": "Counterspell",
          "reactions": [
            {
              "trigger": "$Before.$ActionPlayed",
              "condition": "$event.action.type == 'spell'",
              "mutations": [
                {
                  "target": "$event.action",
                  "operation": "Cancel"
                }
              ]
            }
          ]
        }
      ]
    }
  ]
}
)SPEC";

// "Triggered Actions": EnPassant
inline const char* kEnPassant = R"SPEC(
{
  "triggered_actions": [
    {
      "name": "EnPassant",
      "trigger": "$After.@MovePiece",
      "condition": "$event.entity.tags.contains('Pawn') and $event.action.distance == 2",
      "optional": true,
      "requires_target": "$event.entity",
      "mutations": [
        {
          "target": "$target.entity",
          "destination": "$zone.@Graveyard",
          "operation": "MoveZone"
        },
        {
          "target": "$entity.self",
          "destination": "$event.entity.passed_location",
          "operation": "MoveZone"
        }
      ]
    }
  ]
}
)SPEC";

}  // namespace spec002
