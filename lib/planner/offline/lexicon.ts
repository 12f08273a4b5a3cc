/**
 * The offline planner's small bilingual vocabulary: Chinese words for what tool declarations say
 * in English (actions, the things tools work on, common parameter words), so that a Chinese task
 * can be matched against tools declared only in English — most MCP servers. Not a dictionary of
 * Chinese: only the words people use when they ask a tool to do something. Each entry's English
 * words are stemmed like declaration text, so 删除 meets `delete_entities` and "Delete …".
 *
 * Also here: Chinese names of chemical elements and of a few common materials (石墨烯 → C), which
 * are values for formula-like parameters, and words that name an enum value without spelling it
 * (averaged → mean, 折线图 → line).
 */

/**
 * Chinese word → English words with the same meaning in a tool declaration. An empty entry
 * only keeps its characters from being read as shorter words (进行 is "carry out", not 行 "line").
 */
const CHINESE_TO_ENGLISH: Record<string, string> = {
  进行: '',
  执行: 'run execute',
  银行: '',
  表示: '',
  代表: '',
  表面: 'surface',
  步骤: 'step',
  力学: 'mechanics',
  一行: 'line',
  行数: 'lines',
  的和: 'sum',
  // actions
  读取: 'read',
  读出: 'read',
  读: 'read',
  打开: 'open read',
  查看: 'show view get',
  显示: 'show display',
  展示: 'show display',
  看: 'show view',
  获取: 'get fetch',
  取得: 'get',
  下载: 'download get',
  写入: 'write',
  写到: 'write',
  写: 'write',
  保存: 'save write',
  存储: 'store save',
  创建: 'create',
  新建: 'create new',
  建立: 'create',
  生成: 'generate create',
  构建: 'build',
  添加: 'add',
  增加: 'add',
  删除: 'delete remove',
  移除: 'remove delete',
  移动: 'move',
  重命名: 'rename move',
  改名: 'rename move',
  复制: 'copy',
  拷贝: 'copy',
  编辑: 'edit',
  修改: 'edit modify change',
  替换: 'replace edit',
  改成: 'replace edit',
  搜索: 'search',
  查找: 'search find',
  检索: 'search',
  寻找: 'search find',
  列出: 'list',
  列举: 'list',
  罗列: 'list',
  统计: 'count',
  比较: 'compare diff',
  对比: 'compare diff',
  切换: 'switch checkout',
  合并: 'merge',
  提交: 'commit',
  暂存: 'stage',
  未暂存: 'unstaged',
  没暂存: 'unstaged',
  没有暂存: 'unstaged',
  已暂存: 'staged',
  提交信息: 'commit message',
  推送: 'push',
  拉取: 'pull',
  克隆: 'clone',
  回显: 'echo',
  压缩: 'compress gzip',
  解压: 'decompress',
  触发: 'trigger',
  启动: 'start',
  运行: 'run',
  跑: 'run',
  计算: 'calculate compute',
  求和: 'sum',
  相加: 'sum add',
  之和: 'sum',
  优化: 'optimize',
  总结: 'summarize summary',
  摘要: 'summary summarize',
  概括: 'summarize',
  弛豫: 'relax',
  模拟: 'simulate',
  拟合: 'fit',
  预览: 'preview dry run',
  排除: 'exclude',
  跳过: 'skip exclude',
  忽略: 'ignore exclude',
  包含: 'include',
  包括: 'include',
  考虑: 'include',
  设为: 'set',
  设置: 'set',
  格式化: 'format',
  加粗: 'bold',
  画: 'draw chart plot',
  // things
  文件夹: 'folder directory',
  目录: 'directory',
  文件: 'file',
  路径: 'path',
  内容: 'content',
  文本: 'text',
  行: 'line',
  大小: 'size',
  信息: 'info information',
  元数据: 'metadata',
  环境变量: 'environment variable',
  图片: 'image',
  图像: 'image',
  消息: 'message',
  实体: 'entity',
  关系: 'relation',
  观察: 'observation',
  观测: 'observation',
  节点: 'node',
  知识图谱: 'knowledge graph',
  图谱: 'graph',
  记忆: 'memory',
  查询: 'query search',
  资源: 'resource',
  链接: 'link',
  提示词: 'prompt',
  采样: 'sampling sample',
  提示: 'prompt',
  令牌: 'token',
  时长: 'duration',
  秒: 'second',
  仓库: 'repository',
  分支: 'branch',
  状态: 'status',
  日志: 'log',
  历史: 'history log',
  改动: 'change',
  差异: 'diff',
  最近: 'last recent newest',
  工作簿: 'workbook',
  工作表: 'worksheet sheet',
  表格: 'sheet table',
  表: 'sheet',
  单元格: 'cell',
  公式: 'formula',
  图表: 'chart',
  数据透视表: 'pivot table',
  透视表: 'pivot table',
  格式: 'format',
  粗体: 'bold',
  斜体: 'italic',
  颜色: 'color',
  背景色: 'background fill color',
  字体: 'font',
  边框: 'border',
  标题: 'title',
  数据: 'data',
  范围: 'range',
  区域: 'range',
  结构: 'structure',
  晶体: 'crystal',
  晶胞: 'cell',
  超胞: 'supercell',
  晶格常数: 'lattice constant',
  晶格: 'lattice',
  原子: 'atom',
  声子: 'phonon',
  能带: 'band',
  态密度: 'density states dos',
  分子动力学: 'molecular dynamics',
  弹性常数: 'elastic constant',
  弹性: 'elastic',
  状态方程: 'equation state',
  模型: 'model',
  温度: 'temperature',
  压力: 'pressure',
  压强: 'pressure',
  步长: 'timestep time step',
  步数: 'steps',
  步: 'step',
  帧: 'frame',
  系综: 'ensemble',
  随机种子: 'random seed',
  种子: 'seed',
  位移: 'displacement',
  泛函: 'functional',
  自旋: 'spin',
  轨道: 'orbit',
  耦合: 'coupling',
  截断能: 'cutoff energy',
  截断: 'cutoff',
  间距: 'spacing',
  极化: 'polarized',
  一点: '',
  重点: '',
  地点: 'location',
  点: 'point',
  最后: 'last',
  末尾: 'last',
  // 前 N 行 is "the first N lines"; 之前/以前/提前 are "before", not "first".
  之前: '',
  以前: '',
  提前: '',
  前面: '',
  前: 'first',
  开头: 'first',
  目录树: 'directory tree',
  树: 'tree',
  记得: 'remember memory',
  记住: 'remember memory',
  暂存区: 'staged stage',
  记录: 'record log',
  权限: 'permissions',
  修改时间: 'modified time',
  力: 'force',
  收敛: 'convergence tolerance',
  迭代: 'iteration',
  应变: 'strain',
  体积: 'volume',
  能量: 'energy',
  网格: 'mesh grid',
  每: 'every per',
  最多: 'max most',
  最大: 'max maximum',
  最小: 'min minimum',
  模式: 'pattern mode',
  类型: 'type',
  名称: 'name',
  名字: 'name',
};

/** Chinese names of the elements people build structures of, and of a few common materials. */
const CHINESE_MATERIALS: Record<string, string> = {
  氢: 'H',
  氦: 'He',
  锂: 'Li',
  铍: 'Be',
  硼: 'B',
  碳: 'C',
  氮: 'N',
  氧: 'O',
  氟: 'F',
  氖: 'Ne',
  钠: 'Na',
  镁: 'Mg',
  铝: 'Al',
  硅: 'Si',
  磷: 'P',
  硫: 'S',
  氯: 'Cl',
  氩: 'Ar',
  钾: 'K',
  钙: 'Ca',
  钪: 'Sc',
  钛: 'Ti',
  钒: 'V',
  铬: 'Cr',
  锰: 'Mn',
  铁: 'Fe',
  钴: 'Co',
  镍: 'Ni',
  铜: 'Cu',
  锌: 'Zn',
  镓: 'Ga',
  锗: 'Ge',
  砷: 'As',
  硒: 'Se',
  溴: 'Br',
  锶: 'Sr',
  钇: 'Y',
  锆: 'Zr',
  铌: 'Nb',
  钼: 'Mo',
  钌: 'Ru',
  铑: 'Rh',
  钯: 'Pd',
  银: 'Ag',
  镉: 'Cd',
  铟: 'In',
  锡: 'Sn',
  锑: 'Sb',
  碲: 'Te',
  碘: 'I',
  铯: 'Cs',
  钡: 'Ba',
  镧: 'La',
  铈: 'Ce',
  铪: 'Hf',
  钽: 'Ta',
  钨: 'W',
  铼: 'Re',
  锇: 'Os',
  铱: 'Ir',
  铂: 'Pt',
  金: 'Au',
  汞: 'Hg',
  铅: 'Pb',
  铋: 'Bi',
  铀: 'U',
  石墨烯: 'C',
  石墨: 'C',
  氯化钠: 'NaCl',
  氧化镁: 'MgO',
  二氧化钛: 'TiO2',
  二氧化硅: 'SiO2',
  氧化铝: 'Al2O3',
  氧化铁: 'Fe2O3',
  氧化锌: 'ZnO',
  砷化镓: 'GaAs',
  氮化镓: 'GaN',
  碳化硅: 'SiC',
  氮化硼: 'BN',
  二硫化钼: 'MoS2',
};

/**
 * What may follow a one-character element name for it to name a material: 铜超胞, 铜的, "铜 "
 * — not 金属 (metal), 氧化 (oxidation) or 铁电 (ferroelectric), where the character is part of
 * another word.
 */
const MATERIAL_FOLLOWERS = /^(?:$|[^\u3400-\u9fff]|的|晶|超胞|块|原胞|单胞|结构|体相|薄膜|纳米|表面|板)/;

/** Words that name an enum value without spelling it: stem → the values they stand for. */
export const ENUM_SYNONYMS: Record<string, readonly string[]> = {
  averag: ['mean', 'average', 'avg'],
  平均: ['mean', 'average', 'avg'],
  total: ['sum'],
  summ: ['sum'],
  求和: ['sum'],
  总和: ['sum'],
  合计: ['sum'],
  计数: ['count'],
  个数: ['count'],
  smallest: ['min'],
  minimum: ['min'],
  最小: ['min'],
  largest: ['max', 'size'],
  maximum: ['max'],
  最大: ['max'],
  biggest: ['size'],
  bigg: ['size'],
  larg: ['size'],
  大小: ['size'],
  // sort orders and states, as Chinese writes them
  倒序: ['desc', 'descending'],
  降序: ['desc', 'descending'],
  从新到旧: ['desc', 'descending'],
  升序: ['asc', 'ascending'],
  正序: ['asc', 'ascending'],
  从旧到新: ['asc', 'ascending'],
  已关闭: ['closed'],
  关闭的: ['closed'],
  未关闭: ['open'],
  打开的: ['open'],
  更新时间: ['updated'],
  创建时间: ['created'],
  折线: ['line'],
  柱状: ['bar', 'column'],
  条形: ['bar'],
  饼: ['pie'],
  散点: ['scatter'],
  面积: ['area'],
  细边框: ['thin'],
  细线: ['thin'],
  粗边框: ['thick'],
  粗线: ['thick'],
  双线: ['double'],
  中等: ['medium'],
  错误: ['error'],
  成功: ['success'],
  调试: ['debug'],
};

/** A Chinese word found in a run of Chinese text, with its English words. */
export interface ChineseWord {
  /** Offset in the run. */
  at: number;
  word: string;
  english: readonly string[];
}

const WORDS_BY_LENGTH = Object.keys(CHINESE_TO_ENGLISH).sort((a, b) => b.length - a.length);

/**
 * The vocabulary's words in a run of Chinese characters, longest first and not overlapping
 * (数据透视表 is one word, not 数据 + 透视表).
 */
export function findChineseWords(run: string): ChineseWord[] {
  const found: ChineseWord[] = [];
  const taken = new Array<boolean>(run.length).fill(false);
  for (const word of WORDS_BY_LENGTH) {
    for (let at = run.indexOf(word); at !== -1; at = run.indexOf(word, at + 1)) {
      if (taken.slice(at, at + word.length).some(Boolean)) continue;
      for (let i = at; i < at + word.length; i++) taken[i] = true;
      const english = CHINESE_TO_ENGLISH[word];
      found.push({ at, word, english: english === '' ? [] : english.split(' ') });
    }
  }
  return found.sort((a, b) => a.at - b.at);
}

/** A material named in Chinese in `text` (石墨烯 → C, 铜超胞 → Cu), with where it stands. */
export interface ChineseMaterial {
  start: number;
  end: number;
  formula: string;
}

const MATERIALS_BY_LENGTH = Object.keys(CHINESE_MATERIALS).sort((a, b) => b.length - a.length);

/** Every Chinese material name in `text` (see MATERIAL_FOLLOWERS for one-character names). */
export function findChineseMaterials(text: string): ChineseMaterial[] {
  const found: ChineseMaterial[] = [];
  for (const name of MATERIALS_BY_LENGTH) {
    for (let at = text.indexOf(name); at !== -1; at = text.indexOf(name, at + 1)) {
      const end = at + name.length;
      if (found.some((m) => at < m.end && end > m.start)) continue;
      if (name.length === 1 && !MATERIAL_FOLLOWERS.test(text.slice(end))) continue;
      found.push({ start: at, end, formula: CHINESE_MATERIALS[name] });
    }
  }
  return found.sort((a, b) => a.start - b.start);
}
