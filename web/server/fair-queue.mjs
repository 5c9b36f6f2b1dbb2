// The bot pool's waiting choices, served by fair share of the workers' time: first the group
// (the address a room was opened from) that has had the least of it, then in that group the
// owner (the room) likewise, each owner's choices in the order it asked. A group or owner that
// starts asking again (nothing of it waiting or running) with less time than those asking now
// counts as just under the least of theirs: it goes first, but time it did not use is not saved
// up. So a room whose bot asks now and then, or thinks briefly, waits for the choices running,
// not for a queue of another client's searches, however many rooms that client has.

/** The most groups (addresses) whose share is remembered: past it, the one asked least recently is forgotten. */
const REMEMBERED = 10_000;

export class FairQueue {
  #waiting = new Map(); // group → Map(owner → tasks), in the order they came
  #running = new Set(); // the tasks taken out by shift() and not yet done()
  #objectUse = new WeakMap(); // a room (a group or an owner) → the ms of worker time its choices took (forgotten with the room)
  #otherUse = new Map(); // an address, or null → the same, the one asked least recently first
  #size = 0;
  #now;

  /** `now`: the clock (ms) choices are timed by. */
  constructor(now = () => performance.now()) {
    this.#now = now;
  }

  /** How many tasks wait. */
  get size() {
    return this.#size;
  }

  /** Adds a task ({ group, owner, … }). */
  push(task) {
    const active = this.#active();
    const owners = active.get(task.group);
    if (owners === undefined) this.#catchUp(task.group, active.keys());
    else if (!owners.has(task.owner)) this.#catchUp(task.owner, owners);
    const waiting = this.#waiting.get(task.group) ?? new Map();
    const tasks = waiting.get(task.owner) ?? [];
    tasks.push(task);
    waiting.set(task.owner, tasks);
    this.#waiting.set(task.group, waiting);
    this.#size += 1;
  }

  /** The task shift() would give, or undefined. */
  peek() {
    return this.#next()?.tasks[0];
  }

  /** The next task (undefined when none waits), now running: done(task) when it has finished. */
  shift() {
    const next = this.#next();
    if (!next) return undefined;
    const { group, owners, owner, tasks } = next;
    const task = tasks.shift();
    if (tasks.length === 0) owners.delete(owner);
    if (owners.size === 0) this.#waiting.delete(group);
    this.#size -= 1;
    task.began = this.#now();
    this.#running.add(task);
    return task;
  }

  /** A task shift() gave has finished (chosen, failed or cancelled): its time counts to its group's share and its owner's. */
  done(task) {
    if (!this.#running.delete(task)) return;
    const ms = this.#now() - task.began;
    this.#setUse(task.group, this.#useOf(task.group) + ms);
    if (task.owner !== task.group) this.#setUse(task.owner, this.#useOf(task.owner) + ms);
  }

  /** Takes out the waiting tasks `which` picks, and returns them. */
  remove(which) {
    const gone = [];
    for (const [group, owners] of this.#waiting) {
      for (const [owner, tasks] of owners) {
        const kept = tasks.filter((t) => !which(t) || void gone.push(t));
        if (kept.length > 0) owners.set(owner, kept);
        else owners.delete(owner);
      }
      if (owners.size === 0) this.#waiting.delete(group);
    }
    this.#size -= gone.length;
    return gone;
  }

  /** Takes out every waiting task, and returns them. */
  clear() {
    return this.remove(() => true);
  }

  /** { group, owners, owner, tasks } of the next task: the group, then the owner, with the least time (the first to come on a tie). */
  #next() {
    let best = null;
    for (const [group, owners] of this.#waiting) {
      const use = this.#useOf(group);
      if (best === null || use < best.use) best = { use, group, owners };
    }
    if (best === null) return null;
    let mine = null;
    for (const [owner, tasks] of best.owners) {
      const use = this.#useOf(owner);
      if (mine === null || use < mine.use) mine = { use, owner, tasks };
    }
    return { group: best.group, owners: best.owners, owner: mine.owner, tasks: mine.tasks };
  }

  /** The groups asking now (tasks waiting or running) → the owners of each asking now. */
  #active() {
    const active = new Map();
    const add = (group, owner) => active.set(group, (active.get(group) ?? new Set()).add(owner));
    for (const [group, owners] of this.#waiting) for (const owner of owners.keys()) add(group, owner);
    for (const { group, owner } of this.#running) add(group, owner);
    return active;
  }

  /** A key that starts asking again among `others` (asking now): its time raised to just under the least of theirs. */
  #catchUp(key, others) {
    let least = Infinity;
    for (const other of others) least = Math.min(least, this.#useOf(other));
    if (least !== Infinity) this.#setUse(key, Math.max(this.#useOf(key), least - 1));
  }

  #useOf(key) {
    return (Object(key) === key ? this.#objectUse.get(key) : this.#otherUse.get(key)) ?? 0;
  }

  #setUse(key, ms) {
    if (Object(key) === key) return void this.#objectUse.set(key, ms);
    this.#otherUse.delete(key); // (kept in the order last set)
    this.#otherUse.set(key, ms);
    if (this.#otherUse.size > REMEMBERED) this.#otherUse.delete(this.#otherUse.keys().next().value);
  }
}
