/** The skills room's front door: the Skills extension's hub and registry. */

export type { LoadedSkill, SkillsHub } from './hub.js';
export type { ServerSkills, SkillRecord } from './registry.js';
