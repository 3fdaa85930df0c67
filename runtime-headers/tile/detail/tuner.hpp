//===- tile/detail/tuner.hpp - Configurations chosen by timing -*- C++ -*-===//
//
// What a launch wrapper does when asked to tune (tile/autotune.hpp): on the
// first call with a new key it times every configuration that applies to the
// arguments, on the caller's stream, as Triton's autotuner does (a warm-up,
// then the median of many runs between CUDA/HIP events, L2 flushed and the
// protected buffers reset before each), and keeps the configurations
// fastest first; later calls with that key launch the first of them that
// applies, after one hash lookup (none where the thread launched the same
// kernel with the same key before) and no synchronisation. The measurements
// persist in $TILECC_CACHE_DIR/<kernel>.autotune.json, keyed by kernel,
// hash of its generated code, device, driver and key; a tuning table
// compiled into the wrapper (add_tile_kernel's TUNING_TABLE) answers
// without measuring.
//
// The tuner is a template over the runtime it calls (gpu_api below), so
// that tests drive it with a simulated device.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DETAIL_TUNER_HPP
#define TILE_DETAIL_TUNER_HPP

#include "../autotune.hpp"
#include "../tile.hpp"
#include "json.hpp"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <unordered_map>
#include <utility>
#include <vector>

namespace tile::detail::autotune {

/// A key value as the rule asks it compared.
inline long long round_key(long long v, tuning::rounding r) {
  constexpr long long largest_power = 1LL << 62;
  if (r == tuning::rounding::exact || v <= 1 || v > largest_power)
    return v;
  long long p = 1;
  while (p < v)
    p <<= 1;
  return p;
}

/// What a choice is made for: the device and the rule's key, rounded.
struct key {
  int device = 0;
  int size = 0;
  // Only the first size values are set or read (tuning::list's reason).
  long long values[tuning::capacity];

  friend bool operator==(const key &a, const key &b) {
    if (a.device != b.device || a.size != b.size)
      return false;
    // A loop rather than std::equal's call to memcmp: keys are a few values.
    for (int i = 0; i < a.size; ++i)
      if (a.values[i] != b.values[i])
        return false;
    return true;
  }
};

struct key_hash {
  std::size_t operator()(const key &k) const {
    std::uint64_t h = 1469598103934665603ull ^ std::uint64_t(k.device);
    for (int i = 0; i < k.size; ++i)
      h = (h ^ std::uint64_t(k.values[i])) * 1099511628211ull;
    return std::size_t(h);
  }
};

/// The kernel a tuner serves, as its launch wrapper describes it.
struct kernel_info {
  const char *name;
  /// Of the generated code and configurations: a measurement made for
  /// other code is not reused.
  const char *hash;
  int num_configs;
  /// Each configuration as the wrapper's comments and the cache name it
  /// ("ROWS=4 BLOCK=1024 num_warps=8").
  const char *const *config_names;
  /// Whether measuring may choose each (tile::config::autotune).
  const bool *config_tuned;
};

/// A row of a tuning table compiled into the wrapper.
struct table_entry {
  const char *device; // as the runtime names it; "" for any
  tuning::list<long long> key;
  tuning::list<int> ranking; // configurations, fastest first
};

/// How long each configuration is measured, as Triton's do_bench decides:
/// from an estimate of one run, enough runs to fill each time. The timed
/// runs come in rounds, each a share of every configuration's runs, so that
/// a GPU whose clock falls as it heats slows every configuration alike
/// rather than the ones measured last.
struct budget {
  double warmup_ms = 10;
  double measure_ms = 40;
  int estimate_runs = 3;
  int min_runs = 5;
  int max_runs = 1000;
  int rounds = 5;
};

struct trial {
  int config;
  double ms;
};

inline double median(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (double(v[n / 2 - 1]) + v[n / 2]);
}

inline void warn(const std::string &message) {
  std::fprintf(stderr, "tilecc: %s\n", message.c_str());
}

/// Which measurements of the cache file apply to a tuner.
struct cache_identity {
  const kernel_info *kernel;
  std::string device;
  long long driver;
};

/// The measurements in $TILECC_CACHE_DIR/<kernel>.autotune.json: a JSON
/// object whose "entries" hold one measurement per line. Writers take an
/// advisory lock beside it and replace it by a rename, so that two
/// processes tuning at once both keep theirs and readers, who take no
/// lock, see one whole file or the other.
class disk_cache {
public:
  explicit disk_cache(const kernel_info &kernel) {
    const char *dir = std::getenv("TILECC_CACHE_DIR");
    if (dir && *dir)
      path = std::string(dir) + "/" + kernel.name + ".autotune.json";
  }

  bool enabled() const { return !path.empty(); }

  /// The rankings the file holds for id, by key values.
  std::vector<std::pair<std::vector<long long>, std::vector<int>>>
  read(const cache_identity &id) const {
    std::vector<std::pair<std::vector<long long>, std::vector<int>>> found;
    std::optional<json::value> root = load();
    if (!root)
      return found;
    for (const json::value &e : entries(*root)) {
      if (!matches(e, id))
        continue;
      std::vector<long long> values;
      std::vector<int> ranking;
      if (decode(e, *id.kernel, values, ranking))
        found.emplace_back(std::move(values), std::move(ranking));
    }
    return found;
  }

  /// Adds the measurement of key values for id (replacing one for the same
  /// key); false, with why, when the file cannot be written.
  bool write(const cache_identity &id, const std::vector<long long> &values,
             const std::vector<trial> &trials, std::string &why) const {
    const std::string dir = path.substr(0, path.rfind('/'));
    if (::mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST)
      return why = dir + ": " + std::strerror(errno), false;
    const std::string lock_path = path + ".lock";
    const int lock =
        ::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (lock < 0)
      return why = lock_path + ": " + std::strerror(errno), false;
    while (::flock(lock, LOCK_EX) != 0 && errno == EINTR) {
    }
    std::string text = "{\"tilecc_autotune\": 1, \"entries\": [\n";
    bool first = true;
    auto add = [&](const json::value &e) {
      text += first ? "" : ",\n";
      json::write(e, text);
      first = false;
    };
    if (std::optional<json::value> root = load())
      for (const json::value &e : entries(*root))
        if (!(matches(e, id) && key_of(e) == values))
          add(e);
    add(encode(id, values, trials));
    text += "\n]}\n";
    const std::string temporary =
        path + ".tmp." + std::to_string(static_cast<long long>(::getpid()));
    bool ok = false;
    if (std::FILE *f = std::fopen(temporary.c_str(), "wb")) {
      ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
      ok &= std::fflush(f) == 0 && ::fsync(::fileno(f)) == 0;
      ok &= std::fclose(f) == 0;
      ok = ok && std::rename(temporary.c_str(), path.c_str()) == 0;
      if (!ok) {
        why = path + ": " + std::strerror(errno);
        std::remove(temporary.c_str());
      }
    } else {
      why = temporary + ": " + std::strerror(errno);
    }
    ::flock(lock, LOCK_UN);
    ::close(lock);
    return ok;
  }

private:
  /// The file's JSON; nothing when there is none, and a warning when it is
  /// not the cache's JSON (it is then measured again and rewritten).
  std::optional<json::value> load() const {
    std::FILE *f = std::fopen(path.c_str(), "rb");
    if (!f)
      return std::nullopt;
    std::string text;
    char buffer[65536];
    for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, f)) > 0;)
      text.append(buffer, n);
    std::fclose(f);
    std::size_t at = 0;
    std::optional<json::value> root = json::reader(text).parse(at);
    if (!root) {
      warn("ignoring the autotuning cache " + path + ": not JSON from byte " +
           std::to_string(at));
      return std::nullopt;
    }
    return root;
  }

  static const std::vector<json::value> &entries(const json::value &root) {
    static const std::vector<json::value> none;
    const json::value *e = root.find("entries");
    return e && e->type == json::value::kind::array ? e->items : none;
  }

  static std::string text_of(const json::value &e, const char *field) {
    const json::value *v = e.find(field);
    return v && v->type == json::value::kind::string ? v->text : "";
  }

  static bool matches(const json::value &e, const cache_identity &id) {
    const json::value *driver = e.find("driver");
    return text_of(e, "kernel") == id.kernel->name &&
           text_of(e, "hash") == id.kernel->hash &&
           text_of(e, "device") == id.device && driver &&
           driver->integer() == id.driver;
  }

  static std::vector<long long> key_of(const json::value &e) {
    std::vector<long long> values;
    const json::value *k = e.find("key");
    if (!k || k->type != json::value::kind::array)
      return values;
    for (const json::value &v : k->items)
      values.push_back(v.integer().value_or(0));
    return values;
  }

  /// An entry's key and ranking; false when it is not what write() makes
  /// or names a configuration this kernel does not have.
  static bool decode(const json::value &e, const kernel_info &kernel,
                     std::vector<long long> &values,
                     std::vector<int> &ranking) {
    const json::value *k = e.find("key");
    const json::value *r = e.find("ranking");
    if (!k || k->type != json::value::kind::array ||
        k->items.size() > std::size_t(tuning::capacity) || !r ||
        r->type != json::value::kind::array)
      return false;
    for (const json::value &v : k->items) {
      if (!v.integer())
        return false;
      values.push_back(*v.integer());
    }
    for (const json::value &t : r->items) {
      const json::value *c = t.find("config");
      const std::optional<long long> index = c ? c->integer() : std::nullopt;
      if (!index || *index < 0 || *index >= kernel.num_configs ||
          text_of(t, "name") != kernel.config_names[*index] ||
          !kernel.config_tuned[*index])
        return false;
      ranking.push_back(int(*index));
    }
    return true;
  }

  static json::value encode(const cache_identity &id,
                            const std::vector<long long> &values,
                            const std::vector<trial> &trials) {
    auto string = [](std::string s) {
      json::value v;
      v.type = json::value::kind::string;
      v.text = std::move(s);
      return v;
    };
    auto number = [](std::string s) {
      json::value v;
      v.type = json::value::kind::number;
      v.text = std::move(s);
      return v;
    };
    json::value e;
    e.type = json::value::kind::object;
    e.add("kernel", string(id.kernel->name));
    e.add("hash", string(id.kernel->hash));
    e.add("device", string(id.device));
    e.add("driver", number(std::to_string(id.driver)));
    json::value k;
    k.type = json::value::kind::array;
    for (long long v : values)
      k.items.push_back(number(std::to_string(v)));
    e.add("key", std::move(k));
    json::value ranking;
    ranking.type = json::value::kind::array;
    for (const trial &t : trials) {
      char ms[32];
      std::snprintf(ms, sizeof ms, "%.6g", t.ms);
      json::value r;
      r.type = json::value::kind::object;
      r.add("config", number(std::to_string(t.config)));
      r.add("name", string(id.kernel->config_names[t.config]));
      r.add("ms", number(ms));
      ranking.items.push_back(std::move(r));
    }
    e.add("ranking", std::move(ranking));
    return e;
  }

  std::string path;
};

/// Chooses the configurations of one kernel; one per launch wrapper, shared
/// by the threads that call it.
template <class Api> class tuner {
public:
  using error_t = typename Api::error_t;
  using stream_t = typename Api::stream_t;

  tuner(const kernel_info &kernel, const table_entry *table,
        std::size_t table_size, budget b = {})
      : kernel(kernel), table(table), table_size(table_size), b(b),
        cache(kernel) {}

  /// Launches the configuration measured fastest for t's key that applies,
  /// measuring first where the key is new. launch_config(c, declined)
  /// launches configuration c, or sets declined where c does not apply to
  /// the arguments. declined is set where no configuration measured for the
  /// key applies, or the stream is being captured into a graph (nothing can
  /// be measured then): the caller launches by its default rule.
  template <class Launch>
  error_t launch_tuned(const tuning &t, stream_t stream, Launch &&launch_config,
                       bool &declined) {
    declined = false;
    if (!valid(t))
      return Api::invalid_value;
    const key k = make_key(t);
    if (const std::vector<int> *ranking = recent_choice(k))
      return launch_first(*ranking, launch_config, declined);
    if (const std::vector<int> *ranking = find(measured, k)) {
      remember_choice(k, ranking);
      return launch_first(*ranking, launch_config, declined);
    }

    std::lock_guard<std::mutex> tuning_one(tune_mutex);
    read_cache(k.device);
    if (const std::vector<int> *ranking = find(measured, k))
      return launch_first(*ranking, launch_config, declined);
    if (Api::capturing(stream)) {
      declined = true;
      return Api::success;
    }
    std::vector<trial> trials;
    if (const error_t e = measure(t, stream, launch_config, trials);
        e != Api::success)
      return e;
    std::sort(trials.begin(), trials.end(), [](const trial &a, const trial &b) {
      return a.ms != b.ms ? a.ms < b.ms : a.config < b.config;
    });
    std::vector<int> ranking;
    for (const trial &tr : trials)
      ranking.push_back(tr.config);
    write_cache(k, trials);
    const std::vector<int> *chosen = insert(measured, k, std::move(ranking));
    remember_choice(k, chosen);
    return launch_first(*chosen, launch_config, declined);
  }

  /// Launches the first configuration of the compiled table's row for t's
  /// key that applies; declined where there is none.
  template <class Launch>
  error_t launch_from_table(const tuning &t, Launch &&launch_config,
                            bool &declined) {
    declined = true;
    if (!table_size)
      return Api::success;
    if (!valid(t)) {
      declined = false;
      return Api::invalid_value;
    }
    const key k = make_key(t);
    if (!device_seen(table_devices, k.device)) {
      std::lock_guard<std::mutex> tuning_one(tune_mutex);
      read_table(k.device);
    }
    if (const std::vector<int> *ranking = find(tabled, k))
      return launch_first(*ranking, launch_config, declined);
    return Api::success;
  }

  /// Says once, on stderr, why the kernel is launched by its default rule
  /// although tuning was asked for.
  void say_not_measured(const char *why) {
    std::call_once(said_not_measured, [&] {
      warn(std::string(kernel.name) + " is not autotuned: " + why);
    });
  }

private:
  using choices = std::unordered_map<key, std::vector<int>, key_hash>;

  static bool valid(const tuning &t) {
    return t.key.size <= tuning::capacity &&
           t.reset_to_zero.size <= tuning::capacity &&
           t.restore_value.size <= tuning::capacity;
  }

  static key make_key(const tuning &t) {
    key k;
    k.device = Api::current_device();
    k.size = t.key.size;
    for (int i = 0; i < t.key.size; ++i)
      k.values[i] = round_key(t.key.items[i], t.key_rounding);
    return k;
  }

  /// A thread's last few measured choices, by tuner and key: the hot path
  /// of a thread that relaunches what it launched before takes no lock and
  /// hashes nothing. Rankings are never erased or moved (insert), so the
  /// pointers stay good; tuners are told apart by an id, not an address
  /// that a later tuner could reuse.
  struct recent_choices {
    static constexpr int slots = 8;
    struct slot {
      std::uint64_t tuner = 0; // 0: empty
      key k;
      const std::vector<int> *ranking = nullptr;
    } slot[slots];
  };
  static recent_choices &recent() {
    static thread_local recent_choices choices;
    return choices;
  }
  const std::vector<int> *recent_choice(const key &k) const {
    const auto &s = recent().slot[id % recent_choices::slots];
    return s.tuner == id && s.k == k ? s.ranking : nullptr;
  }
  void remember_choice(const key &k, const std::vector<int> *ranking) const {
    recent().slot[id % recent_choices::slots] = {id, k, ranking};
  }

  const std::vector<int> *find(const choices &c, const key &k) const {
    std::shared_lock<std::shared_mutex> reading(map_mutex);
    const auto it = c.find(k);
    return it == c.end() ? nullptr : &it->second;
  }
  /// Entries are never replaced or erased: a ranking another thread is
  /// launching from stays where it is.
  const std::vector<int> *insert(choices &c, const key &k,
                                 std::vector<int> ranking) {
    std::unique_lock<std::shared_mutex> writing(map_mutex);
    return &c.emplace(k, std::move(ranking)).first->second;
  }
  bool device_seen(const std::vector<int> &devices, int device) const {
    std::shared_lock<std::shared_mutex> reading(map_mutex);
    return std::find(devices.begin(), devices.end(), device) != devices.end();
  }

  template <class Launch>
  static error_t launch_first(const std::vector<int> &ranking,
                              Launch &launch_config, bool &declined) {
    for (const int c : ranking) {
      bool d = false;
      const error_t e = launch_config(c, d);
      if (!d) {
        declined = false;
        return e;
      }
    }
    declined = true;
    return Api::success;
  }

  cache_identity identity(int device) const {
    return {&kernel, Api::device_name(device), Api::driver_version()};
  }

  /// The file's measurements for this device, once per device.
  void read_cache(int device) {
    if (!cache.enabled() || device_seen(cache_devices, device))
      return;
    for (auto &[values, ranking] : cache.read(identity(device))) {
      key k;
      k.device = device;
      k.size = int(values.size());
      std::copy(values.begin(), values.end(), k.values);
      insert(measured, k, std::move(ranking));
    }
    std::unique_lock<std::shared_mutex> writing(map_mutex);
    cache_devices.push_back(device);
  }

  void write_cache(const key &k, const std::vector<trial> &trials) {
    std::string why;
    if (cache.enabled() &&
        !cache.write(identity(k.device),
                     std::vector<long long>(k.values, k.values + k.size),
                     trials, why) &&
        !cache_warned) {
      warn("cannot write the autotuning cache: " + why);
      cache_warned = true;
    }
  }

  /// The compiled table's rows for this device, once per device.
  void read_table(int device) {
    if (device_seen(table_devices, device))
      return;
    const std::string name = Api::device_name(device);
    // Rows for this device first, then those for any: the first row for a
    // key is kept.
    for (const bool any_device : {false, true})
      for (std::size_t i = 0; i < table_size; ++i) {
        const table_entry &row = table[i];
        if (any_device ? *row.device != 0 : name != row.device)
          continue;
        key k;
        k.device = device;
        k.size = std::min(row.key.size, tuning::capacity);
        std::copy(row.key.items, row.key.items + k.size, k.values);
        const int n = std::min(row.ranking.size, tuning::capacity);
        insert(tabled, k,
               std::vector<int>(row.ranking.items, row.ranking.items + n));
      }
    std::unique_lock<std::shared_mutex> writing(map_mutex);
    table_devices.push_back(device);
  }

  /// Times every configuration that applies (trials: those that ran,
  /// unordered), leaving t's buffers as the caller had them.
  template <class Launch>
  error_t measure(const tuning &t, stream_t stream, Launch &launch_config,
                  std::vector<trial> &trials) {
    std::vector<void *> saved(t.restore_value.size, nullptr);
    struct release_saved {
      std::vector<void *> &saved;
      ~release_saved() {
        for (void *p : saved)
          if (p)
            Api::release(p);
      }
    } release{saved};
    error_t e = Api::success;
    for (int i = 0; i < t.restore_value.size; ++i) {
      const tuning::buffer &buffer = t.restore_value.items[i];
      if ((e = Api::allocate(&saved[i], buffer.bytes)) != Api::success ||
          (e = Api::copy(saved[i], buffer.data, buffer.bytes, stream)) !=
              Api::success)
        return e;
    }
    auto prepare = [&]() -> error_t {
      error_t status = Api::success;
      for (int i = 0; i < t.reset_to_zero.size && status == Api::success; ++i)
        status = Api::zero(t.reset_to_zero.items[i].data,
                           t.reset_to_zero.items[i].bytes, stream);
      for (int i = 0; i < t.restore_value.size && status == Api::success; ++i)
        status = Api::copy(t.restore_value.items[i].data, saved[i],
                           t.restore_value.items[i].bytes, stream);
      return status;
    };
    const int device = Api::current_device();
    struct candidate {
      int config, runs;
      std::vector<float> ms;
    };
    std::vector<candidate> candidates;
    for (int c = 0; c < kernel.num_configs; ++c) {
      if (t.max_trials > 0 && int(candidates.size()) == t.max_trials)
        break;
      if (!kernel.config_tuned[c])
        continue;
      if ((e = prepare()) != Api::success)
        return e;
      bool declined = false;
      if (Api::launch_failed(launch_config(c, declined)) || declined)
        continue; // it does not apply, or cannot launch (too many resources)
      std::vector<float> ms;
      if ((e = time_runs(c, b.estimate_runs, device, stream, prepare,
                         launch_config, ms)) != Api::success)
        return e;
      const double estimate = std::max(median(ms), 1e-4);
      const int warmups =
          std::clamp(int(b.warmup_ms / estimate), 1, b.max_runs);
      for (int r = 0; r < warmups; ++r) {
        bool d = false;
        if ((e = prepare()) != Api::success ||
            (e = launch_config(c, d)) != Api::success)
          return e;
      }
      const int runs =
          std::clamp(int(b.measure_ms / estimate), b.min_runs, b.max_runs);
      candidates.push_back({c, runs, {}});
    }
    // Round r starts at the r-th configuration, so that none is always
    // timed first (right after another's warm-up) or last.
    const int n = int(candidates.size());
    for (int r = 0; r < b.rounds; ++r)
      for (int i = 0; i < n; ++i) {
        candidate &cand = candidates[(i + r) % n];
        const int share = cand.runs / b.rounds + (r < cand.runs % b.rounds);
        if (share > 0 &&
            (e = time_runs(cand.config, share, device, stream, prepare,
                           launch_config, cand.ms)) != Api::success)
          return e;
      }
    for (const candidate &cand : candidates)
      trials.push_back({cand.config, median(cand.ms)});
    return prepare();
  }

  /// runs launches of configuration c, each timed alone (its buffers
  /// prepared and the L2 cache flushed before its first event), their
  /// times appended to ms.
  template <class Prepare, class Launch>
  static error_t time_runs(int c, int runs, int device, stream_t stream,
                           Prepare &prepare, Launch &launch_config,
                           std::vector<float> &ms) {
    using event_t = typename Api::event_t;
    std::vector<event_t> events;
    struct destroy_events {
      std::vector<event_t> &events;
      ~destroy_events() {
        for (event_t e : events)
          Api::destroy_event(e);
      }
    } destroy{events};
    error_t e = Api::success;
    for (int i = 0; i < 2 * runs; ++i) {
      event_t ev{};
      if ((e = Api::create_event(ev)) != Api::success)
        return e;
      events.push_back(ev);
    }
    for (int r = 0; r < runs; ++r) {
      bool d = false;
      if ((e = prepare()) != Api::success ||
          (e = Api::flush_l2(device, stream)) != Api::success ||
          (e = Api::record(events[2 * r], stream)) != Api::success ||
          (e = launch_config(c, d)) != Api::success ||
          (e = Api::record(events[2 * r + 1], stream)) != Api::success)
        return e;
    }
    if ((e = Api::synchronize(events.back())) != Api::success)
      return e;
    for (int r = 0; r < runs; ++r) {
      float run_ms = 0;
      if ((e = Api::elapsed_ms(events[2 * r], events[2 * r + 1], run_ms)) !=
          Api::success)
        return e;
      ms.push_back(run_ms);
    }
    return Api::success;
  }

  static std::uint64_t next_id() {
    static std::atomic<std::uint64_t> last{0};
    return ++last;
  }

  const std::uint64_t id = next_id();
  const kernel_info kernel;
  const table_entry *table;
  std::size_t table_size;
  budget b;
  disk_cache cache;
  bool cache_warned = false;
  std::once_flag said_not_measured;

  mutable std::shared_mutex map_mutex; // guards the maps and device lists
  std::mutex tune_mutex;               // one measurement at a time
  choices measured, tabled;
  std::vector<int> cache_devices, table_devices;
};

#if defined(CUDART_VERSION) ||                                                 \
    (defined(__HIP_PLATFORM_AMD__) && defined(HIP_VERSION))
#if defined(CUDART_VERSION)
#define TILE_GPU(name) cuda##name
#else
#define TILE_GPU(name) hip##name
#endif
/// The CUDA or HIP runtime, as the tuner calls it.
struct gpu_api {
  using error_t = TILE_GPU(Error_t);
  using stream_t = TILE_GPU(Stream_t);
  using event_t = TILE_GPU(Event_t);
  static constexpr error_t success = TILE_GPU(Success);
  static constexpr error_t invalid_value = TILE_GPU(ErrorInvalidValue);

  static int current_device() {
    int device = 0;
    return TILE_GPU(GetDevice)(&device) == success ? device : 0;
  }
  static std::string device_name(int device) {
#if defined(CUDART_VERSION)
    cudaDeviceProp properties;
#else
    hipDeviceProp_t properties;
#endif
    if (TILE_GPU(GetDeviceProperties)(&properties, device) != success)
      return "";
    return properties.name;
  }
  static long long driver_version() {
    int version = 0;
    return TILE_GPU(DriverGetVersion)(&version) == success ? version : 0;
  }
  static bool capturing(stream_t stream) {
    TILE_GPU(StreamCaptureStatus) status = TILE_GPU(StreamCaptureStatusNone);
    return TILE_GPU(StreamIsCapturing)(stream, &status) != success ||
           status != TILE_GPU(StreamCaptureStatusNone);
  }
  /// A launch's own failure (too many resources for the device, say) is
  /// not sticky: it is taken, so that the next launch does not report it.
  static bool launch_failed(error_t e) {
    if (e == success)
      return false;
    (void)TILE_GPU(GetLastError)();
    return true;
  }
  static error_t allocate(void **p, std::size_t bytes) {
    return TILE_GPU(Malloc)(p, bytes ? bytes : 1);
  }
  static void release(void *p) { (void)TILE_GPU(Free)(p); }
  static error_t zero(void *p, std::size_t bytes, stream_t stream) {
    return TILE_GPU(MemsetAsync)(p, 0, bytes, stream);
  }
  static error_t copy(void *to, const void *from, std::size_t bytes,
                      stream_t stream) {
    return TILE_GPU(MemcpyAsync)(to, from, bytes,
                                 TILE_GPU(MemcpyDeviceToDevice), stream);
  }
  /// Writes twice the device's L2 cache size (a buffer per device, kept
  /// for the process), so that no run finds its inputs cached by the last.
  static error_t flush_l2(int device, stream_t stream) {
    static std::mutex buffers_mutex;
    static std::unordered_map<int, std::pair<void *, std::size_t>> buffers;
    std::lock_guard<std::mutex> holding(buffers_mutex);
    auto it = buffers.find(device);
    if (it == buffers.end()) {
      int l2 = 0;
#if defined(CUDART_VERSION)
      (void)cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device);
#else
      (void)hipDeviceGetAttribute(&l2, hipDeviceAttributeL2CacheSize, device);
#endif
      const std::size_t bytes =
          std::max<std::size_t>(2 * std::size_t(l2 > 0 ? l2 : 0), 64 << 20);
      void *p = nullptr;
      if (const error_t e = TILE_GPU(Malloc)(&p, bytes); e != success)
        return e;
      it = buffers.emplace(device, std::make_pair(p, bytes)).first;
    }
    return TILE_GPU(MemsetAsync)(it->second.first, 0, it->second.second,
                                 stream);
  }
  static error_t create_event(event_t &e) { return TILE_GPU(EventCreate)(&e); }
  static void destroy_event(event_t e) { (void)TILE_GPU(EventDestroy)(e); }
  static error_t record(event_t e, stream_t stream) {
    return TILE_GPU(EventRecord)(e, stream);
  }
  static error_t synchronize(event_t e) {
    return TILE_GPU(EventSynchronize)(e);
  }
  static error_t elapsed_ms(event_t from, event_t to, float &ms) {
    return TILE_GPU(EventElapsedTime)(&ms, from, to);
  }
};
#undef TILE_GPU
#endif

} // namespace tile::detail::autotune

#endif
