// A move that fails at run time (a definition error met while it resolves: a bad value, a
// loop). Game::apply takes a move as a transaction: the state, the log and the trace are
// rolled back, and the move is tried again with the item that failed cancelled, after a
// GameError that says why. Rare by nature, so compiled for size in wasm (CMakeLists.txt).
#include <memory>
#include <new>

#include "rulestack/game.h"

namespace rulestack {

std::string Game::apply(int player, const Move& given, std::string* message) {
  std::string reason = check(player, given, message);
  if (!reason.empty()) return reason;
  // the targets in one order: a move is legal whatever order it names them in, and it does the
  // same ($target is the first as legalMoves lists them to the player: takeAction, answer)
  Move m = given;
  sortSlots(m.targets);
  State backup = st_;
  const size_t logSize = log.size(), traceSize = trace ? trace->size() : 0;
  const int32_t ownItem = m.kind == Move::Take ? st_.nextItemId : -1;  // takeAction's item
  auto rollback = [&] { rollbackTo(backup, logSize, traceSize); };
  // Each try replays the move from the same state, so an item has the same id in every try.
  constexpr size_t kMaxFailedItems = 32;
  failed_.clear();
  for (;;) {
    try {
      // an item this very move resumes (an answer to its decision) is cancelled from the start
      int fi = -1;
      for (int i = 0; !failed_.empty() && i < (int)st_.stack.size() && fi < 0; i++)
        if (st_.stack[i].kind == FK::Exec && failureOf(st_.stack[i].item.id)) fi = i;
      if (fi >= 0) abortItem(fi, *failureOf(st_.stack[fi].item.id));
      else applyUnchecked(player, m);
      failed_.clear();
      return "";
    } catch (const RuntimeError& e) {
      try {
        int32_t cause = causeItem();
        rollback();
        if (cause >= 0 && cause != ownItem && !failureOf(cause) && failed_.size() < kMaxFailedItems) {
          failed_.emplace_back(cause, std::make_shared<const RuntimeError>(e));
          continue;
        }
        failed_.clear();
        if (m.kind != Move::Take) {  // nothing else a player could do gets past it: the game ends
          eventsThisMove_ = 0;
          logError(std::make_shared<const RuntimeError>(e), nullptr);
          endGame(-1);
          advance();  // (drops what was still to resolve)
          return "";
        }
        if (message) *message = e.what();
        return e.reason;
      } catch (const std::bad_alloc&) {  // out of memory while it recovers: back to before the move
        rollbackTo(std::move(backup), logSize, traceSize);
        failed_.clear();
        throw;  // (Session::apply refuses it as out of memory)
      }
    } catch (const std::exception& e) {  // out of memory and the like: still transactional
      rollbackTo(std::move(backup), logSize, traceSize);  // (moved: a copy could run out of memory again)
      failed_.clear();
      if (message) *message = std::string("internal error: ") + e.what();
      return "runtime_error";
    }
  }
}

const std::shared_ptr<const RuntimeError>* Game::failureOf(int32_t item) const {
  for (const auto& f : failed_)
    if (f.first == item) return &f.second;
  return nullptr;
}

std::string Game::runMutations(const std::vector<Mutation>& ms, std::string* message) {
  movesCachePlayer_ = -1;
  State backup = st_;
  const size_t logSize = log.size(), traceSize = trace ? trace->size() : 0;
  try {
    eventsThisMove_ = 0;
    extra_.push_back(ms);
    FrameCtx k;
    k.player = st_.active;
    pushMuts(LK::Extra, (int32_t)extra_.size() - 1, -1, std::move(k));
    advance();
  } catch (const RuntimeError& e) {
    rollbackTo(std::move(backup), logSize, traceSize);
    if (message) *message = e.what();
    return e.reason;
  } catch (const std::exception& e) {
    rollbackTo(std::move(backup), logSize, traceSize);
    if (message) *message = std::string("internal error: ") + e.what();
    return "runtime_error";
  }
  return "";
}

// Back to the state before a move (or a `do`) that threw, its log and trace cut to match.
void Game::rollbackTo(State backup, size_t logSize, size_t traceSize) {
  resetEval();
  movesCachePlayer_ = -1;
  hoistOn_ = false;
  st_ = std::move(backup);
  entsIndexed_ = false;
  log.resize(logSize);
  if (trace) trace->resize(traceSize);
  endDirty_ = ~0ull;
  quietCause_ = -1;
  quietItem_ = nullptr;
}

// An item that failed when it executed in an earlier try of this move: it is cancelled
// instead, as if its targets had gone, after a GameError that says why.
void Game::failItem(Item&& it, int32_t priorityTo, const std::shared_ptr<const RuntimeError>& e) {
  logError(e, &it);
  if (priorityTo >= 0) pushPriority(priorityTo);
  cancelItem(std::move(it));
}

// An item that failed while it waited for this move (an answer to its decision): it is
// cancelled with everything its resolution had started (frames above it, their decisions);
// the answer goes with it.
void Game::abortItem(int fi, const std::shared_ptr<const RuntimeError>& e) {
  movesCachePlayer_ = -1;
  eventsThisMove_ = 0;
  quietCause_ = -1;
  quietItem_ = nullptr;
  Item it = std::move(st_.stack[fi].item);
  int32_t priorityTo = st_.stack[fi].a;
  while ((int)st_.stack.size() > fi) st_.stack.pop_back();
  st_.decisions.clear();  // (a decision belongs to the top frame: one of those)
  failItem(std::move(it), priorityTo, e);
  advance();
}

void Game::logError(const std::shared_ptr<const RuntimeError>& e, const Item* it) {
  if (!logging) return;
  Event ev;
  ev.type = Ev::GameError;
  if (it) {
    const Def& d = *def_;
    ev.item = it->id;
    ev.player = it->player;
    ev.named = it->kind == ItemKind::Action     ? d.actions[it->def].nameSym
               : it->kind == ItemKind::Reaction ? d.reactions[it->def].nameSym
                                                : d.triggered[it->def].nameSym;
  }
  size_t n = log.size();
  logEvent(ev, false);
  if (log.size() > n) log.back().error = e;
}

// Game::countEvent's error: a move past the definition's max_events.
void Game::tooManyEvents() const {
  throw RuntimeError("loop_limit", "more than " + std::to_string(def_->maxEvents) + " events in one move; the chain: " + chainNames());
}

// The names of the reactions and triggered actions running, innermost last (for loop errors).
std::string Game::chainNames() const {
  const Def& d = *def_;
  std::vector<const std::string*> names;
  for (const Frame& f : st_.stack) {
    if (f.kind != FK::Muts) continue;
    if (f.lk == LK::Reaction) names.push_back(&d.reactions[f.li].name);
    else if (f.lk == LK::Triggered) names.push_back(&d.triggered[f.li].name);
  }
  std::string out;
  for (size_t i = names.size() > 6 ? names.size() - 6 : 0; i < names.size(); i++)
    out += (out.empty() ? "" : " -> ") + (names[i]->empty() ? std::string("(unnamed)") : *names[i]);
  return out.empty() ? "(none)" : out;
}

// An end condition held whose winner is no player (nor an entity standing for its owner).
void Game::winnerError(const EndCondition& ec) const {
  throw RuntimeError("runtime_error", "/end_conditions/" + std::to_string(&ec - def_->ends.data()) +
                                          "/winner: not a player (nor an entity: its owner)");
}

}  // namespace rulestack
