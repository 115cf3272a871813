/** Chinese city names as the data writes them, with the English name the gazetteer knows them by. */
export const CJK_CITY_NAMES: Record<string, string> = {
  北京: "Beijing", 上海: "Shanghai", 杭州: "Hangzhou", 深圳: "Shenzhen", 广州: "Guangzhou", 成都: "Chengdu",
  南京: "Nanjing", 武汉: "Wuhan", 西安: "Xi'an", 苏州: "Suzhou", 厦门: "Xiamen", 长沙: "Changsha",
  天津: "Tianjin", 重庆: "Chongqing", 珠海: "Zhuhai", 合肥: "Hefei", 青岛: "Qingdao", 大连: "Dalian",
  郑州: "Zhengzhou", 济南: "Jinan", 福州: "Fuzhou", 宁波: "Ningbo", 无锡: "Wuxi", 东莞: "Dongguan",
  佛山: "Foshan", 香港: "Hong Kong", 台北: "Taipei", 沈阳: "Shenyang", 昆明: "Kunming", 贵阳: "Guiyang",
};
