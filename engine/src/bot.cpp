// Bots that play fair: a bot for player p uses only what p may know. Its random choices are
// seeded with its seed and a hash of p's view; MCTS searches determinizations (the hidden part
// of the state dealt anew, consistently with p's view) and adds up their verdicts. The
// omniscient variant (BotOptions::omniscient) searches the true state: for tests only.
#include "bot.h"

#include <algorithm>
#include <cmath>
#include <memory>

#include "json_io.h"

namespace rulestack {

uint64_t infoHash(const Game& g, int player) {
  uint64_t h = 1469598103934665603ULL;  // FNV-1a over the view's text: p's information only
  for (char c : viewText(g, player)) {
    h ^= (uint8_t)c;
    h *= 1099511628211ULL;
  }
  return h;
}

namespace {
// The hidden entities in the order of their places (zones in order, each from its top, then
// the destroyed ones), not of their indexes: identities dealt to places, so that the deal does
// not follow the true order (a deck read in reverse deals alike). The entities stay where they
// are: moves, decisions, queue items and attachments name them by index.
std::vector<int32_t> inPlaceOrder(const State& s, const std::vector<int32_t>& places) {
  std::vector<char> hidden(s.ents.size(), 0), inZone(s.zones.size(), 0);
  for (int32_t e : places) {
    hidden[e] = 1;
    if (s.ents[e].zone >= 0) inZone[s.ents[e].zone] = 1;
  }
  std::vector<int32_t> out;
  out.reserve(places.size());
  for (size_t z = 0; z < s.zones.size(); z++)
    if (inZone[z])
      for (int32_t e : s.zones[z])
        if (hidden[e]) out.push_back(e);
  for (int32_t e : places)
    if (s.ents[e].zone < 0) out.push_back(e);
  return out;
}

// Where in a zone hidden from the player the cards of each owner lie is hidden too (a card put
// into another player's deck, then shuffled): the dealt cards of such a zone with cards of
// several owners change places among themselves, in an order drawn from the owners alone.
void dealPlaces(State& s, const std::vector<char>& dealt, Rng& rng) {
  for (Zone& z : s.zones) {
    std::vector<uint32_t> at;  // positions of the dealt cards
    for (uint32_t i = 0; i < z.size(); i++)
      if (dealt[z[i]] && s.ents[z[i]].host < 0) at.push_back(i);
    bool owners = false;
    for (uint32_t i : at) owners |= s.ents[z[i]].owner != s.ents[z[at[0]]].owner;
    if (!owners) continue;
    // by owner, each owner's in the order they were dealt: the same for any order of the places
    std::vector<int32_t> cards;
    for (int32_t o = -1; o < 8; o++)  // (an owner is a player, at most 8; -1 none)
      for (uint32_t i : at)
        if (s.ents[z[i]].owner == o) cards.push_back(z[i]);
    for (size_t i = cards.size(); i > 1; i--) std::swap(cards[i - 1], cards[rng.below((uint32_t)i)]);
    for (size_t k = 0; k < at.size(); k++) z[at[k]] = cards[k];
  }
}
}  // namespace

void determinize(Game& g, int player, Rng& rng, const std::vector<bool>* known) {
  const Def& d = g.def();
  State& s = g.dealState();  // (tmpl and props move together below)
  const size_t np = d.propNames.size();
  // What the player may not know, by owner: (0) cards in zones hidden from them: everything
  // but the place; (1) face-down cards they see: the card under the face (its template of
  // origin, id and the properties the face does not show). A card destroyed where the player
  // could not identify it is dealt with the others of its kind: they never learnt which went.
  // A card's id is dealt apart from what it is (among the ids of its template of origin): which
  // id goes with which properties is hidden too, until the card is seen.
  struct Identity {
    int32_t tmpl, idTmpl;
    std::vector<Slot> props;
    bool operator<(const Identity& o) const {
      if (tmpl != o.tmpl) return tmpl < o.tmpl;
      if (idTmpl != o.idTmpl) return idTmpl < o.idTmpl;
      for (size_t i = 0; i < props.size(); i++)
        if (!(props[i] == o.props[i])) return slotLess(props[i], o.props[i]);
      return false;
    }
  };
  std::vector<char> faceShows;  // (the properties a face declares)
  std::vector<char> dealtHidden(s.ents.size(), 0);  // dealt as kind 0, in a zone
  const uint8_t bit = player >= 0 ? (uint8_t)(1u << player) : 0;
  for (int kind = 0; kind < 2; kind++) {
    for (int owner = 0; owner < d.numPlayers(); owner++) {
      std::vector<int32_t> places;
      std::vector<Identity> ids;
      std::vector<int32_t> serials;  // pairs: the template of origin, the serial
      for (int32_t e = d.numPlayers(); e < (int32_t)s.ents.size(); e++) {
        const Entity& en = s.ents[e];
        if (en.owner != owner) continue;
        if (known && (size_t)e < known->size() && (*known)[e]) continue;
        if (en.alive) {
          if (g.identifies(player, e)) continue;
          bool hiddenZone = en.zone >= 0 && !g.seesZone(en.zone, player);
          if (hiddenZone != (kind == 0)) continue;
          if (kind == 0) dealtHidden[e] = 1;
        } else if (!((kind == 0 ? en.goneHidden : en.goneFaceDown) & bit)) {
          continue;
        }
        places.push_back(e);
        Identity id{kind == 0 ? en.tmpl : -1, en.idTmpl, {}};
        serials.push_back(en.idTmpl);
        serials.push_back(en.serial);
        id.props.assign(s.props.begin() + (size_t)e * np, s.props.begin() + (size_t)(e + 1) * np);
        if (kind == 1)  // (a face-down card's properties its face declares are shown: they stay with the place)
          for (const auto& kv : d.templates[en.tmpl].props) id.props[(size_t)kv.first] = Slot{};
        ids.push_back(std::move(id));
      }
      if (places.size() < 2) continue;
      if (kind == 0) places = inPlaceOrder(s, places);
      // the same deal from any state the player cannot tell apart: canonical order, then shuffled
      stableSort(ids, std::less<>());  // (the cold sort: equal identities are alike)
      for (size_t i = ids.size(); i > 1; i--) std::swap(ids[i - 1], ids[rng.below((uint32_t)i)]);
      std::vector<uint32_t> serialOrder = stableOrder(serials.size() / 2, [](const void* c, size_t a, size_t b) {
        const int32_t* v = static_cast<const std::vector<int32_t>*>(c)->data();
        return v[2 * a] != v[2 * b] ? v[2 * a] < v[2 * b] : v[2 * a + 1] < v[2 * b + 1];
      }, &serials);
      for (size_t i = serialOrder.size(); i > 1; i--) std::swap(serialOrder[i - 1], serialOrder[rng.below((uint32_t)i)]);
      for (size_t i = 0; i < places.size(); i++) {
        Entity& en = s.ents[places[i]];
        const Identity& id = ids[i];
        Slot* row = &s.props[(size_t)places[i] * np];
        if (kind == 0) {
          en.tmpl = id.tmpl;
          std::copy(id.props.begin(), id.props.end(), row);
        } else {  // the card under the face: what the face does not show
          std::vector<char>& shown = faceShows;
          shown.assign(np, 0);
          for (const auto& kv : d.templates[en.tmpl].props) shown[(size_t)kv.first] = 1;
          for (size_t p = 0; p < np; p++)
            if (!shown[p]) row[p] = id.props[p];
        }
        en.idTmpl = id.idTmpl;
        for (uint32_t& k : serialOrder)  // the first id of its template of origin still to deal
          if (k != ~0u && serials[2 * k] == id.idTmpl) {
            en.serial = serials[2 * k + 1];
            k = ~0u;
            break;
          }
        if (en.serial < 0) s.customIds[-1 - en.serial].first = places[i];
      }
    }
    if (kind == 0) dealPlaces(s, dealtHidden, rng);
  }
  s.rng.seed(rng.next());  // the order of what is still to be shuffled or drawn is hidden too
}


bool botLevel(const std::string& name, BotOptions& o) {
  // iterations and playout length: the time per move each gives is in bench/RESULTS.md
  struct Level { const char* name; int iterations, maxPlayoutMoves; };
  static const Level levels[] = {{"easy", 25, 200}, {"normal", 200, 400}, {"hard", 800, 800}};
  for (const Level& l : levels)
    if (name == l.name) {
      o.mcts = true;
      o.iterations = l.iterations;
      o.maxPlayoutMoves = l.maxPlayoutMoves;
      return true;
    }
  return false;
}

Move botChoose(const Game& g, int player, const BotOptions& o) {
  std::vector<Move> moves;
  g.legalMoves(player, moves);
  if (!o.omniscient) {  // in the order the player is shown them (the engine's tells hidden cards apart)
    std::vector<Move> seen;
    for (uint32_t i : g.orderAsSeen(moves, player)) seen.push_back(moves[i]);
    moves.swap(seen);
  }
  if (moves.empty()) return Move{};
  Rng rng;
  rng.seed(o.seed ^ (o.omniscient ? g.hash() : infoHash(g, player)));
  if (!o.mcts || moves.size() == 1) return moves[rng.below((uint32_t)moves.size())];
  std::vector<int> visits(moves.size(), 0);
  if (o.omniscient) {
    search(g, moves, o.iterations, o.maxPlayoutMoves, rng, visits);
  } else {
    // information-set MCTS by determinization: a few deals, the iterations shared among them
    int deals = std::max(1, std::min(kMaxDeals, o.iterations / kIterationsPerDeal));
    for (int k = 0; k < deals; k++) {
      Game dealt = g.clone();
      determinize(dealt, player, rng);
      int share = o.iterations / deals + (k < o.iterations % deals ? 1 : 0);
      search(dealt, moves, share, o.maxPlayoutMoves, rng, visits);
    }
  }
  size_t best = 0;
  for (size_t i = 1; i < moves.size(); i++)
    if (visits[i] > visits[best]) best = i;
  return moves[best];
}

}  // namespace rulestack
